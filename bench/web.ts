/**
 * `npm run bench:web`: Lighthouse 12 (mobile, its default simulated throttling) against the local
 * stack's static server, which compresses and caches as CloudFront does, served plain (HTTP/1.1, as
 * `npm start` serves it) and behind an HTTP/2 and TLS front as CloudFront serves it (bench/h2-front.ts;
 * HTTP1=1 or H2=1 measures one), on /dts/login, on /dts/dashboard and /dts/compliance signed in as the
 * demo farmer on the Auto farm (4 vats, 48 hours of simulated readings, then live), and on /dts/devices
 * signed in as the demo Admin (with the authenticator code) over a fleet of 2,000 devices. Prints performance,
 * accessibility, total blocking time and the JavaScript the page loads (bytes on the wire).
 * Loopback only; needs a web build (the npm script makes one) and Debian's chromium.
 * Not a test: it prints what it measured. RUNS=n repeats each page, each a first visit (HTTP cache, service
 * worker and its Cache Storage cleared; the session kept), and prints every run and the median;
 * ONLY=/dts/dashboard measures one page; SAVE=dir writes each run's Lighthouse report there as JSON;
 * DIST=dir serves another web build (an A/B of two builds in one session). Last, the 30-day charts'
 * total blocking time at 4× CPU (bench/dashboard-tbt.ts; ONLY=tbt measures only that).
 */
import '../local/quiet-warnings';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { DEMO_PASSWORD } from '../local/seed/demo-data';
import { simulateDemoFarm } from '../test/support/demo-farm-readings';
import { startTestStack } from '../test/support/local-stack';
import { startH2Front } from './h2-front';
import { writeFleet } from './device-fleet';
import { benchDashboardTbt, writeDashboardMonth } from './dashboard-tbt';
import { ADMIN, originsToMeasure, signedInPage } from './lighthouse-pages';
import { CHROMIUM_PATH } from '../test/support/browser';
import { REPO_ROOT } from '../cdk/lib/paths';

const RUNS = Number(process.env.RUNS ?? 3);
const ONLY = process.env.ONLY;
const SAVE = process.env.SAVE;
const FARMER = 'farmer@vatman.local';
const FARM = 'farm-auto';

/** The web app's load targets. */
const TARGETS = { performance: 95, accessibility: 100, dashboardTbtMs: 200, initialJsKb: { '/dts/login': 120, '/dts/dashboard': 200 } as Record<string, number> };

interface Figures {
  performance: number;
  accessibility: number;
  tbt: number;
  lcp: number;
  fcp: number;
  jsBytes: number;
  jsFiles: number;
  /** The accessibility audits that failed, with the elements they name. */
  a11yFailed: string[];
  /** The machine's 1-minute load average when the run ended (other work on it lowers the score). */
  load: number;
}

/** What one run measured; the scripts counted are the site's own (`origin`). */
const figuresOf = (result: RunnerResult | undefined, origin: string): Omit<Figures, 'load'> => {
  const lhr = result?.lhr;
  if (!lhr) throw new Error('Lighthouse gave no result');
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number; url?: string }[] } | undefined)?.items ?? [];
  const scripts = items.filter((i) => i.resourceType === 'Script' && i.url?.startsWith(origin));
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    fcp: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
    jsBytes: scripts.reduce((s, i) => s + (i.transferSize ?? 0), 0),
    jsFiles: scripts.length,
    a11yFailed: (lhr.categories.accessibility?.auditRefs ?? [])
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 1)
      .map((a) => {
        const nodes = ((a?.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? []).map((i) => i.node?.snippet).filter(Boolean);
        return `${a?.id}: ${nodes.slice(0, 3).join(' ')}`;
      }),
  };
};

/** Forgets every download of the origin, not the session: what a signed-in farmer's first visit on a new phone costs. */
const firstVisit = async (p: Page, origin: string) => {
  // Leave the page first: its deferred work (the worker's registration waits for an idle moment)
  // must not run after the clearing.
  await p.goto('about:blank');
  const cdp = await p.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'service_workers,cache_storage' });
  await cdp.detach();
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const stack = await startTestStack(undefined, process.env.DIST ?? join(REPO_ROOT, 'frontend', 'dist'));
// The dashboard a farmer sees: the Auto farm's 4 vats with 48 hours of readings (what `npm start`
// backfills), then live, one reading a minute per vat, so the cards, the tiles and the charts all
// have their data. An empty farm would measure a dashboard without charts.
const sim = await simulateDemoFarm(stack.facts.mqtt, FARM, 48, 1_000);
{
  // Until the ingest has stored every vat's newest reading.
  const token = await stack.signIn(FARMER);
  const started = Date.now();
  for (;;) {
    const res = await stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }, token);
    const last = (res.body as { last: { published_at: string } | null }[] | undefined) ?? [];
    if (res.status === 200 && last.length > 0 && last.every((v) => v.last && Date.now() - Date.parse(v.last.published_at) < 3 * 60_000)) break;
    if (Date.now() - started > 120_000) throw new Error('the simulated readings were not ingested within 2 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}
// The Admin's device list with a national fleet's 2,000 devices.
if (!ONLY || ONLY === '/dts/devices') await writeFleet(stack.facts);
// What phones get from CloudFront: HTTP/2 over TLS (bench/h2-front.ts) beside the local server as it is.
const front = process.env.HTTP1 === '1' ? undefined : await startH2Front(stack.facts.web, join(stack.dataDir, 'bench-ca'));
const browser = await puppeteer.launch({
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...(front ? [front.chromiumArg] : [])],
});
try {
  const port = Number(new URL(browser.wsEndpoint()).port);
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true };
  console.log(
    `Lighthouse ${(createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version}, mobile, default simulated throttling; ${RUNS} run(s) per page, medians; ` +
      'the plain local server (HTTP/1.1) and the HTTP/2 and TLS front as CloudFront serves it (HTTP1=1 or H2=1: one of them)',
  );
  for (const { label, origin: web } of originsToMeasure(stack.facts.web, front?.origin)) {
    console.log(` ${label}, ${web}`);
    // One page signed in: Amplify keeps the session in localStorage (per origin), which Lighthouse leaves (disableStorageReset).
    const page: Page = await browser.newPage();
    await browser.setCookie({ name: 'vatman_farm', value: encodeURIComponent(JSON.stringify({ _id: FARM })), domain: new URL(web).hostname, path: '/' });
    await page.goto(`${web}/dts/login`);
    await page.locator('::-p-aria(Email)').fill(FARMER);
    await page.locator('::-p-aria(Password)').fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForFunction('location.pathname.endsWith("/dashboard")', { timeout: 30_000 });
    // A signed-out copy for the login page: another browser context has its own storage.
    const signedOut = await (await browser.createBrowserContext()).newPage();

    const routes: [string, () => Promise<Page>][] = [
      ['/dts/login', async () => signedOut],
      ['/dts/dashboard', async () => page],
      ['/dts/compliance', async () => page],
      ['/dts/devices', () => signedInPage(browser, web, ADMIN)],
    ];
    for (const [route, open] of routes.filter(([r]) => !ONLY || r === ONLY)) {
      const p = await open();
      const runs: Figures[] = [];
      for (let k = 0; k < RUNS; k++) {
        // A first visit with the session kept: the HTTP cache emptied, the service worker (the
        // dashboard registers one) unregistered and its Cache Storage cleared, so no run
        // loads its scripts from the previous run's worker; localStorage (Amplify's session) stays.
        await firstVisit(p, web);
        const result = await lighthouse(`${web}${route}`, flags, undefined, p);
        if (SAVE && result) writeFileSync(join(SAVE, `${route.replaceAll('/', '_')}-${k + 1}.json`), JSON.stringify(result.lhr));
        runs.push({ ...figuresOf(result, web), load: loadavg()[0] ?? NaN });
      }
      const m = (f: Exclude<keyof Figures, 'a11yFailed'>) => median(runs.map((r) => r[f]));
      const js = m('jsBytes') / 1000;
      const jsTarget = TARGETS.initialJsKb[route] ?? Infinity;
      const met = m('performance') >= TARGETS.performance && m('accessibility') >= TARGETS.accessibility;
      console.log(
        `  ${route.padEnd(16)} performance ${m('performance')} (${runs.map((r) => r.performance).join(', ')}; target ≥ ${TARGETS.performance})  accessibility ${m('accessibility')} (target ${TARGETS.accessibility}): ${met ? 'met' : 'NOT met'}  ` +
          `FCP ${(m('fcp') / 1000).toFixed(1)} s  LCP ${(m('lcp') / 1000).toFixed(1)} s  TBT ${m('tbt').toFixed(0)} ms${route === '/dts/dashboard' ? ` (target ≤ ${TARGETS.dashboardTbtMs})` : ''}  ` +
          `scripts loaded ${js.toFixed(1)} KB on the wire in ${m('jsFiles')} files (initial JS target ≤ ${jsTarget} KB; the build's route budget counts it)`,
      );
      runs.forEach((r, k) =>
        console.log(
          `    run ${k + 1}: performance ${r.performance}  FCP ${(r.fcp / 1000).toFixed(1)} s  LCP ${(r.lcp / 1000).toFixed(1)} s  TBT ${r.tbt.toFixed(0)} ms  ` +
            `scripts ${(r.jsBytes / 1000).toFixed(1)} KB in ${r.jsFiles} files; load average ${r.load.toFixed(2)}`,
        ),
      );
      for (const failed of new Set(runs.flatMap((r) => r.a11yFailed))) console.log(`    accessibility: ${failed}`);
    }
  }
  // The 30-day charts' blocking time at 4× CPU (bench/dashboard-tbt.ts), on the plain server.
  if (!ONLY || ONLY === 'tbt') {
    await writeDashboardMonth(stack.facts);
    await benchDashboardTbt(browser, stack.facts.web, RUNS);
  }
} finally {
  await browser.close();
  await front?.close();
  await sim.stop();
  await stack.stop();
}
