import { readFile } from 'node:fs/promises';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import type { Device } from '../../shared/entities/device';
import { telemetryTopic, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { browserTestFile, farmContext, readChart, scrollToChart, signIn, withShot } from '../support/browser';

/**
 * In Chromium: one clock for farmers. The browser is in London, the Vat-Man
 * Auto farm (farm-auto, FON50412) in Auckland; one reading (the start of a milking, which starts
 * the storage too) must read the same farm clock on the vat card, in the chart's tooltip, in the
 * storage list (/dts/dashboard/data) and in data.csv, in the §9 formats, named NZDT/NZST on screen
 * because the browser's clock says another time.
 */
const env = browserTestFile('farm-clock');
let client: MqttClient;
const { run } = env;

const FARM = 'farm-auto';
const FARM_ZONE = 'Pacific/Auckland';
const BROWSER_ZONE = 'Europe/London';
const MIN = 60_000;
const STEP = 10 * MIN;
const POINTS = 24;
/** The milking starts (som) at this reading and ends (eom) 6 readings later. */
const SOM = 8;
const traceEnd = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;
const timeOf = (k: number) => traceEnd - (POINTS - 1 - k) * STEP;

const vat = DEMO_DEVICES.filter((d) => d.farm_id === FARM).sort((a, b) => a.vat_number - b.vat_number)[0] as Device;

const trace = (): TelemetryMessageInput[] =>
  Array.from({ length: POINTS }, (_, k) => ({
    published_at: new Date(timeOf(k)).toISOString(),
    milk_level: k < SOM ? 60 : 200 + (k - SOM) * 60,
    temp1: 4 + (k % 4) * 0.2,
    agitator_status: 1,
    state_machine: k < SOM ? 'empty' : k === SOM ? 'som' : k < SOM + 6 ? 'milking' : k === SOM + 6 ? 'eom' : 'storage',
    battery: { status: '0x0B' },
  }));

/** The farm's wall clock at `t`, worked out here with Intl alone, independently of the app. */
const farmParts = (t: number) =>
  Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: FARM_ZONE, weekday: 'short', day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(t))
      .map((p) => [p.type, p.value]),
  );
/** §9 'DD MMM YYYY HH:mm' on the farm's clock ('Sept' is ICU's, the spec's month is 'Sep'). */
const farmWhen = (t: number) => {
  const p = farmParts(t);
  return `${p['day']} ${String(p['month']).slice(0, 3)} ${p['year']} ${p['hour']}:${p['minute']}`;
};
/** §9's chart format 'ddd, Do MMMM HH:mm' on the farm's clock. */
const farmChart = (t: number) => {
  const p = farmParts(t);
  const day = Number(p['day']);
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
  const month = new Intl.DateTimeFormat('en-GB', { timeZone: FARM_ZONE, month: 'long' }).format(new Date(t));
  return `${p['weekday']}, ${day}${suffix} ${month} ${p['hour']}:${p['minute']}`;
};
const londonClock = (t: number) => new Intl.DateTimeFormat('en-GB', { timeZone: BROWSER_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t));

/** The tooltip title chart.js would show at `x` on its chart. */
const TOOLTIP_TITLE = '(chart, x) => (chart ? chart.options.plugins.tooltip.callbacks.title([{ parsed: { x, y: 0 }, dataset: {} }]) : null)';

let milkingStart = 0;

beforeAll(async () => {
  if (!run) return;
  client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'farm-clock-browser-test' });
  for (const m of trace()) await client.publishAsync(telemetryTopic(vat.name), JSON.stringify(m), { qos: 1 });
  const token = await env.stack.signIn('farmer@vatman.local');
  const newest = new Date(timeOf(POINTS - 1)).toISOString();
  const started = Date.now();
  for (;;) {
    const res = await env.stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }, token);
    const mine = (res.body as { device: { _id: string }; last: { published_at: string } | null; lastMilking: { activity: { start: { published_at: string } } } | null }[]).find(
      (v) => v.device._id === vat._id,
    );
    if (res.status === 200 && mine?.last?.published_at === newest && mine.lastMilking) {
      milkingStart = Date.parse(mine.lastMilking.activity.start.published_at);
      break;
    }
    if (Date.now() - started > 60_000) throw new Error(`readings not ingested: ${JSON.stringify(res.body).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);
afterAll(async () => client?.endAsync());

describe.runIf(run)('one clock for farmers in Chromium', () => {
  it('a browser in London shows the Auckland farm clock for one reading on the card, the chart tooltip, the storage list and data.csv', async () => {
    // The reading: the milking's start (som), which the storage starts with too.
    expect(milkingStart).toBe(timeOf(SOM));
    const when = farmWhen(milkingStart);
    // The two clocks differ (11 to 13 hours), so a page in the browser's zone could not pass.
    expect(londonClock(milkingStart)).not.toBe(when.slice(12));
    const named = new RegExp(`^${when} NZ[DS]T$`);

    const context = await farmContext(env.browser, env.web, FARM, { timezoneId: BROWSER_ZONE, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/dashboard`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL(`${env.web}/dts/dashboard`);
    await withShot(page, 'farm-clock-dashboard', async () => {
      // The card: Last Milking Start as a relative time, its exact time (on hover) on the farm's clock.
      const card = page.getByRole('region', { name: `Vat ${vat.vat_number}`, exact: true });
      const start = card.locator('.vat-card__fact', { has: page.locator('dt', { hasText: 'Last Milking Start' }) }).locator('time');
      await start.waitFor();
      expect(await start.getAttribute('title')).toMatch(named);

      // The chart's tooltip at that reading: §9's chart format on the same clock.
      const chartName = `Vat ${vat.vat_number} milk volume`;
      await scrollToChart(page, chartName);
      const title = await readChart<string | null>(page, chartName, TOOLTIP_TITLE, milkingStart);
      expect(title).toMatch(new RegExp(`^${farmChart(milkingStart)} NZ[DS]T$`));

      // data.csv: the row of that reading, DateTime on the farm's clock (a column of one zone: no name).
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download Vat ${vat.vat_number} data` }).click()]);
      const rows = (await readFile(await download.path(), 'utf8')).split('\r\n');
      expect(rows.filter((r) => r.startsWith(`${when},`))).toHaveLength(1);
    });

    // The storage list: the storage that started with the milking, on the same clock.
    await page.goto(`${env.web}/dts/dashboard/data`);
    await withShot(page, 'farm-clock-storage-list', async () => {
      await page.getByRole('heading', { level: 1, name: 'Milk storage data' }).waitFor();
      const started = page.locator('.activity-list__fact', { has: page.locator('dt', { hasText: 'Started' }) }).locator('dd');
      await started.first().waitFor();
      expect(await started.allTextContents()).toContainEqual(expect.stringMatching(named));
    });
    await context.close();
  });
});
