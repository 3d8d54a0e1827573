/**
 * bench:web's blocking-time figure for the 30-day charts: the signed-in dashboard of farm-auto
 * (4 vats) in Chromium with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate, as Lighthouse's
 * devtools throttling does), the 30 farm-local days picked in the date range, every chart scrolled
 * into view so each draws. Total blocking time is summed from the page's own long tasks
 * (PerformanceObserver 'longtask': the part of each task over 50 ms) from the click on View until
 * the page has been quiet for 2 s, and printed against ≤ 100 ms. The month is the simulator's vat
 * model (milkings, cooling, collections, washes, noise), written as the ingest stores it.
 * The machine may be shared: compare runs of one session (DIST=dir serves another build).
 */
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import type { Browser, Page } from 'puppeteer-core';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { DEMO_DEVICES, DEMO_FARMS, DEMO_PASSWORD } from '../local/seed/demo-data';
import { vatHistory } from '../local/simulator/history';
import { storeReadings } from '../test/support/stored-readings';
import type { LocalFacts } from '../local/start';
import { addDays, localDayOf } from '../shared/time/local-day';

const FARM = 'farm-auto';
const FARMER = 'farmer@vatman.local';
const DAYS = 30;
const CPU_SLOWDOWN = 4;
const TARGET_TBT_MS = 100;
const QUIET_MS = 2_000;

/** 30 days of farm-auto's 4 vats up to now, stored as putReading's items and compacted as the ingest does. */
export const writeDashboardMonth = async (facts: LocalFacts): Promise<void> => {
  const doc = createDocumentClient();
  const table = facts.dynamodb.readingsTable;
  const farm = DEMO_FARMS.find((f) => f._id === FARM);
  if (!farm) throw new Error(`no demo farm ${FARM}`);
  const minutes = (DAYS + 1) * 1440;
  const start = Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000;
  const devices = DEMO_DEVICES.filter((d) => d.farm_id === FARM);
  const entries = devices.flatMap((d) =>
    vatHistory(farm, d, start, minutes, [{ kind: 'offline', atMinute: 12 * 1440 + 600, minutes: 180 }]).map(({ message, reading }) => ({ deviceId: d._id, reading, raw: JSON.stringify(message) })),
  );
  await storeReadings(doc, table, entries);
};

/** Installed before the app's scripts: every long task of the page, kept for the bench to read. */
const OBSERVE_LONG_TASKS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
})()`;

interface LongTask {
  start: number;
  duration: number;
}

/** One measured view of the 30-day charts on `page` (signed in as the farmer). */
const measureOnce = async (page: Page, web: string): Promise<{ tbt: number; longest: number; tasks: number; ms: number }> => {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  try {
    await page.goto(`${web}/dts/dashboard`);
    const today = localDayOf(Date.now(), 'Pacific/Auckland');
    const picker = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    const from = await page.waitForSelector('::-p-aria(From)', { timeout: 120_000 });
    await from?.scrollIntoView();
    // The 2-day default draws first: let it settle, then measure only the 30-day view.
    await page.waitForSelector('canvas[aria-label="Vat 1 temperatures"]', { timeout: 120_000 });
    await new Promise((r) => setTimeout(r, QUIET_MS));
    await page.locator('::-p-aria(From)').fill(picker(addDays(today, -(DAYS - 1))));
    await page.locator('::-p-aria(To)').fill(picker(today));
    const clickedAt = (await page.evaluate('performance.now()')) as number;
    const t0 = performance.now();
    await page.locator('::-p-aria(View)').click();
    // Scroll down the page so every chart draws, then wait for 2 s without a long task.
    for (let y = 0; y < 40; y++) {
      await page.evaluate('window.scrollBy(0, 400)');
      await new Promise((r) => setTimeout(r, 150));
    }
    let tasks: LongTask[] = [];
    for (let quietSince = Date.now(); Date.now() - quietSince < QUIET_MS; ) {
      await new Promise((r) => setTimeout(r, 250));
      const now = ((await page.evaluate('window.__longTasks')) as LongTask[]).filter((t) => t.start >= clickedAt);
      if (now.length !== tasks.length) quietSince = Date.now();
      tasks = now;
    }
    const ms = performance.now() - t0 - QUIET_MS;
    return { tbt: tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0), longest: Math.max(0, ...tasks.map((t) => t.duration)), tasks: tasks.length, ms };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
};

/** Prints the 30-day view's total blocking time at 4× CPU, `runs` times and the median. */
export const benchDashboardTbt = async (browser: Browser, web: string, runs = 3): Promise<void> => {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setCookie({ name: 'vatman_farm', value: encodeURIComponent(JSON.stringify({ _id: FARM })), domain: new URL(web).hostname, path: '/' });
  await page.goto(`${web}/dts/login`);
  await page.locator('::-p-aria(Email)').fill(FARMER);
  await page.locator('::-p-aria(Password)').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction('location.pathname.endsWith("/dashboard")', { timeout: 60_000 });
  await page.evaluateOnNewDocument(OBSERVE_LONG_TASKS);
  const results = [];
  for (let k = 0; k < runs; k++) results.push({ ...(await measureOnce(page, web)), load: loadavg()[0] ?? NaN });
  await context.close();
  const tbt = [...results.map((r) => r.tbt)].sort((a, b) => a - b)[Math.floor(results.length / 2)] ?? NaN;
  console.log(
    ` 30-day dashboard charts (${FARM}, 4 vats, ${DAYS} days of the simulator's readings), CPU ${CPU_SLOWDOWN}× slower: total blocking time ${tbt.toFixed(0)} ms, median of ${runs} (target ≤ ${TARGET_TBT_MS} ms): ${tbt <= TARGET_TBT_MS ? 'met' : 'NOT met'}`,
  );
  results.forEach((r, k) =>
    console.log(`    run ${k + 1}: TBT ${r.tbt.toFixed(0)} ms in ${r.tasks} long tasks (longest ${r.longest.toFixed(0)} ms), measured over ${(r.ms / 1000).toFixed(1)} s; load average ${r.load.toFixed(2)}`),
  );
};
