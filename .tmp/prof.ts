import '../local/quiet-warnings';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { DEMO_PASSWORD } from '../local/seed/demo-data';
import { startTestStack } from '../test/support/local-stack';
import { CHROMIUM_PATH } from '../test/support/browser';
import { REPO_ROOT } from '../cdk/lib/paths';

const stack = await startTestStack(undefined, process.env.DIST ?? join(REPO_ROOT, 'frontend', 'dist'));
const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const web = stack.facts.web;
  const page = await browser.newPage();
  await browser.setCookie({ name: 'vatman_farm', value: encodeURIComponent(JSON.stringify({ _id: 'farm-auto' })), domain: new URL(web).hostname, path: '/' });
  await page.goto(`${web}/dts/login`);
  await page.locator('::-p-aria(Email)').fill('farmer@vatman.local');
  await page.locator('::-p-aria(Password)').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction('location.pathname.endsWith("/dashboard")', { timeout: 30_000 });
  await new Promise((r) => setTimeout(r, 3000));
  for (let k = 0; k < Number(process.env.N ?? 2); k++) {
    await page.goto('about:blank');
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', { origin: web, storageTypes: 'service_workers,cache_storage' });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${web}/dts/dashboard`);
    await page.waitForSelector('.farm-offline-banner, .milk-dashboard__cards', { timeout: 30_000 });
    const t = await page.evaluate(() => performance.now());
    await new Promise((r) => setTimeout(r, 2500));
    const { profile } = await cdp.send('Profiler.stop');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    const byUrl = new Map<string, number>();
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const n = byId.get(id)!;
      const f = n.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      const d = (deltas[i + 1] ?? 0) / 1000;
      self.set(key, (self.get(key) ?? 0) + d);
      const u = f.url.split('/').pop() || f.functionName;
      byUrl.set(u, (byUrl.get(u) ?? 0) + d);
    });
    console.log(`run ${k + 1}: cards at ${t.toFixed(0)} ms (4x CPU)`);
    console.log('  by file:', [...byUrl].filter(([u]) => u !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 12).map(([u, d]) => `${u} ${d.toFixed(0)}`).join(', '));
    console.log('  top self:', [...self].filter(([u]) => !u.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([u, d]) => `${u} ${d.toFixed(0)}`).join('\n    '));
    await cdp.detach();
  }
} finally {
  await browser.close();
  await stack.stop();
}
