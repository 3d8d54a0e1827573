import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DEMO_DEVICES, DEMO_FARMS } from '../../local/seed/demo-data';
import { vatHistory } from '../../local/simulator/history';
import type { z } from 'zod';
import type { lastAllColumnsItemSchema } from '../../shared/api/actions/farmer-activity';
import { isMilkingState } from '../../shared/telemetry/device-message';
import { vatThresholds, type Threshold } from '../../shared/telemetry/display-buckets';
import type { Reading } from '../../shared/telemetry/reading';
import { addDays, localDayOf } from '../../shared/time/local-day';
import { storeReadings } from '../support/stored-readings';
import { browserTestFile, farmContext, readChart, scrollToChart, signIn, withShot } from '../support/browser';

/**
 * In Chromium: a 30-day chart of the milk dashboard, drawn from the answer
 * the server thinned to the chart's width (`points`, two readings a pixel), still shows every raw
 * maximum above and minimum below each alert line (§9's 10 °C and 6 °C, too cold, the vat-level
 * alert): the chart's own data, read from its chart.js instance, against the readings written.
 * The month is the simulator's vat model (milkings, cooling, collections, washes, noise) with an
 * outage and a chiller fault, written straight to the Readings table as the ingest stores it.
 */
const env = browserTestFile('range-resolution');
const { run } = env;

const MIN = 60_000;
const DAY = 1440 * MIN;
const FARM = 'farm-pro';
const TIME_ZONE = 'Pacific/Auckland';
const farm = DEMO_FARMS.find((f) => f._id === FARM)!;
const device = DEMO_DEVICES.find((d) => d.farm_id === FARM && d.vat_number === 1)!;
const end = Math.floor(Date.now() / MIN) * MIN - 2 * MIN;
const MINUTES = 31 * 1440;
let raw: Reading[] = [];

beforeAll(async () => {
  if (!run) return;
  raw = vatHistory(farm, device, end - MINUTES * MIN, MINUTES, [
    { kind: 'offline', atMinute: 9 * 1440 + 100, minutes: 180 },
    { kind: 'chiller_off', atMinute: 17 * 1440 + 500, minutes: 8 * 60 },
  ])
    .map((h) => h.reading)
    .filter((r) => Date.parse(r.published_at) <= end);
  await storeReadings(
    createDocumentClient(),
    env.stack.facts.dynamodb.readingsTable,
    raw.map((reading) => ({ deviceId: device._id, reading, raw: JSON.stringify({ published_at: reading.published_at }) })),
    16,
  );
}, 600_000);

afterAll(() => {
  raw = [];
});

type LastAllItem = z.infer<typeof lastAllColumnsItemSchema>;

interface XY {
  readonly x: number;
  readonly y: number;
}

/** A chart's dataset `label` (the data it was given) and its x range, read from the chart.js instance. */
const READ_DATASET = `(chart, label) => {
  const set = chart ? chart.data.datasets.find((d) => d.label === label) : null;
  // chart.js's decimation, when a series is long, draws from a copy whose x is a pixel's mean
  // and keeps the data it was given in _data: that is the chart's data to compare.
  const given = set ? set._data || set.data : null;
  return given ? { min: chart.scales.x.min, max: chart.scales.x.max, data: given.map((p) => ({ x: p.x, y: p.y })) } : null;
}`;
const dataset = (page: Page, name: string, label: string) =>
  readChart<{ min: number; max: number; data: XY[] } | null>(page, name, READ_DATASET, label);

/** Runs of the raw readings on either side of a threshold, with the extreme of each (max above, min at or below). */
const runsOf = (readings: readonly Reading[], { series, value }: Threshold) => {
  const out: { above: boolean; from: number; to: number; extreme: number }[] = [];
  for (const r of readings) {
    const v = r[series];
    if (v === null) continue;
    const t = Date.parse(r.published_at);
    const above = v > value;
    const last = out.at(-1);
    if (last && last.above === above) {
      last.to = t;
      last.extreme = above ? Math.max(last.extreme, v) : Math.min(last.extreme, v);
    } else out.push({ above, from: t, to: t, extreme: v });
  }
  return out;
};

describe.runIf(run)('a 30-day chart at the chart\'s resolution', () => {
  it('keeps every raw maximum above and minimum below the alert lines, from at most two readings a pixel', async () => {
    const context = await farmContext(env.browser, env.web, FARM, { width: 1280, timezoneId: TIME_ZONE });
    const page = await context.newPage();
    const calls: URLSearchParams[] = [];
    const answers: Promise<unknown>[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${env.stack.facts.web}/api/`)) calls.push(new URLSearchParams(r.postData() ?? ''));
    });
    page.on('response', (r) => {
      const asked = new URLSearchParams(r.request().postData() ?? '');
      if (asked.get('type') === 'FARMER_DASHBOARD_LAST_ALL' && asked.get('points') && !asked.get('since')) answers.push(r.json().catch(() => null));
    });
    try {
      await withShot(page, 'range-resolution', async () => {
        await page.goto(`${env.web}/dts/dashboard`);
        await signIn(page, 'farmer@vatman.local');
        await page.getByRole('heading', { level: 1, name: 'Vatman' }).waitFor();
        const today = localDayOf(Date.now(), TIME_ZONE);
        const picker = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
        // A loaded machine can take a while to draw the charts section below the cards.
        const from = page.getByLabel('From', { exact: true });
        await from.scrollIntoViewIfNeeded({ timeout: 90_000 });
        await from.fill(picker(addDays(today, -29)), { timeout: 90_000 });
        await page.getByLabel('To', { exact: true }).fill(picker(today), { timeout: 90_000 });
        await page.getByRole('button', { name: 'View' }).click();
        await scrollToChart(page, 'Vat 1 temperatures');
        const asked = () => calls.find((c) => c.get('type') === 'FARMER_DASHBOARD_LAST_ALL' && c.get('startDate') === addDays(today, -29));
        await expect.poll(asked, { timeout: 60_000 }).toBeTruthy();
        const points = Number(asked()?.get('points'));
        // The charts are drawn from the columnar form (decision 111).
        expect(asked()?.get('form')).toBe('columns');
        // The section is about 1,200 px wide at 1280: the app asks for its width in pixels.
        expect(points).toBeGreaterThanOrEqual(600);
        expect(points).toBeLessThanOrEqual(1_300);

        // Wait until the 30-day answer is drawn (the 2-day default comes first).
        await expect.poll(async () => {
          const d = await dataset(page, 'Vat 1 temperatures', 'Vat');
          return d ? d.max - d.min : 0;
        }, { timeout: 60_000 }).toBeGreaterThan(29 * DAY);
        const temps = (await dataset(page, 'Vat 1 temperatures', 'Vat'))!;
        const volumes = (await dataset(page, 'Vat 1 milk volume', 'Milk Volume'))!;
        const inRange = raw.filter((r) => Date.parse(r.published_at) >= temps.min && Date.parse(r.published_at) <= temps.max);
        expect(inRange.length).toBeGreaterThan(40_000);
        // At most two readings a pixel; far fewer than the month's readings.
        expect(temps.data.length).toBeLessThanOrEqual(2 * points);
        expect(volumes.data.length).toBeLessThanOrEqual(2 * points);

        // Every point drawn is a raw reading, at its own time.
        const rawAt = new Map(inRange.map((r) => [Date.parse(r.published_at), r]));
        for (const p of temps.data) expect(rawAt.get(p.x)?.temp1, `temperature at ${new Date(p.x).toISOString()}`).toBe(p.y);
        for (const p of volumes.data) expect(rawAt.get(p.x)?.milk_volume, `volume at ${new Date(p.x).toISOString()}`).toBe(p.y);

        // Every run of raw readings beyond an alert line has its extreme drawn, inside the run.
        let checked = 0;
        for (const threshold of vatThresholds(device.vat_size)) {
          const drawn = threshold.series === 'temp1' ? temps.data : volumes.data;
          for (const r of runsOf(inRange, threshold)) {
            const hit = drawn.some((p) => p.x >= r.from && p.x <= r.to && p.y === r.extreme);
            expect(hit, `${threshold.series} ${r.above ? 'max above' : 'min at or below'} ${threshold.value}: ${r.extreme} between ${new Date(r.from).toISOString()} and ${new Date(r.to).toISOString()}`).toBe(true);
            checked++;
          }
        }
        // A month of two milkings a day: most warm the vat past 6 and 10 °C and cool it again (how
        // many do depends on where the month falls in the simulator's days: about 200).
        expect(checked).toBeGreaterThan(150);

        // The shadings the chart was drawn from, thinned to its pixel: every raw stopped reading
        // lies inside a stop band, every milking start and end and every collection is a state
        // run's boundary.
        const month = ((await Promise.all(answers)) as (LastAllItem[] | null)[])
          .flatMap((a) => a ?? [])
          .find((v) => v.device._id === device._id && v.range.startDate === addDays(today, -29));
        expect(month).toBeDefined();
        const inAnswer = raw.filter((r) => r.published_at >= month!.range.from && r.published_at <= month!.range.to);
        const bands = month!.agitatorData.listStop.map((b) => [Date.parse(b.start.published_at), b.end ? Date.parse(b.end.published_at) : Infinity] as const);
        const stopped = inAnswer.filter((r) => r.agitator_status === 0);
        expect(stopped.length).toBeGreaterThan(1_000);
        for (const r of stopped) {
          const t = Date.parse(r.published_at);
          expect(bands.some(([a, b]) => a <= t && t <= b), `stopped at ${r.published_at}`).toBe(true);
        }
        const boundaries = new Set(month!.phyStateData.map((run) => Date.parse(run.start)));
        let events = 0;
        for (let i = 1; i < inAnswer.length; i++) {
          const [a, b] = [inAnswer[i - 1]!.state_machine, inAnswer[i]!.state_machine];
          if (a === null || b === null) continue;
          if (isMilkingState(a) !== isMilkingState(b) || (a === 'storage' && b === 'empty')) {
            expect(boundaries.has(Date.parse(inAnswer[i]!.published_at)), `${a} → ${b} at ${inAnswer[i]!.published_at}`).toBe(true);
            events++;
          }
        }
        expect(events).toBeGreaterThan(100);
        // Thinner than the raw shadings: fewer stops than the month's raw stops.
        expect(month!.agitatorData.listStop.length).toBeLessThan(stopped.length / 10);
      });
    } finally {
      await context.close();
    }
  }, 300_000);
});
