import { readFile } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository, StoredActivity } from '../../lambdas/ports/readings';
import { pointOf, type ActivityKind } from '../../shared/telemetry/activities';
import { addDays, localDayOf, localMidnight } from '../../shared/time/local-day';
import { dayOf } from '../../shared/time/utc';
import { browserTestFile, readChart, shot, signInAt, withShot } from '../support/browser';
import { reading } from '../support/reading-series';

/**
 * In Chromium against the local stack: the demo Milk Quality user looks up
 * the Auto farm (FON50412) by its 5-digit number, vat 2, over 7 days: charts, last activities and
 * the quality series show, the toggles shade, Download gives the CSV of the spec's columns, and an
 * empty vat number is marked with nothing sent. The demo Westlands user gets a tab per Westlands
 * farm and a clear refusal for a supply number of another supplier (403 on the server).
 * The readings are written straight through the repository, as the ingest stores them.
 */
const env = browserTestFile('milk-quality');
const { run } = env;

const MIN = 60_000;
const HOUR = 60 * MIN;
const ZONE = 'Pacific/Auckland';
const AUTO_2 = 'dev-fon50412-2';
const now = Math.floor(Date.now() / MIN) * MIN;
const today = localDayOf(now, ZONE);
/** The 7 days asked for: today and the 6 before it, the farm's local days. */
const fromDay = addDays(today, -6);
/** A reading every 10 minutes from 10 minutes after the first day's local midnight to 20 minutes ago. */
const STEP = 10 * MIN;
const FIRST = localMidnight(fromDay, ZONE) + 10 * MIN;
const COUNT = Math.floor((now - 20 * MIN - FIRST) / STEP) + 1;
/** An hour and a half without readings (an outage) a day and a half ago. */
const GAP_FROM = COUNT - 220;
const GAP_STEPS = 9;

let readings: ReadingsRepository;
let stored = 0;

const putActivity = async (kind: ActivityKind, startMs: number, endMs: number | null) => {
  const point = (t: number) => pointOf(reading(new Date(t).toISOString(), { temp1: 4, milk_volume: 3000 }));
  const a: StoredActivity = { kind, device_id: AUTO_2, farm_id: 'farm-auto', start: point(startMs), end: endMs === null ? null : point(endMs) };
  await readings.putActivity(a, 1);
};

beforeAll(async () => {
  if (!run) return;
  readings = dynamoReadingsRepository(createDocumentClient(), env.stack.facts.dynamodb.readingsTable);
  const days = new Set<string>();
  const batch: Promise<unknown>[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    if (i > GAP_FROM && i < GAP_FROM + GAP_STEPS) continue;
    const at = new Date(FIRST + i * STEP).toISOString();
    days.add(dayOf(at));
    stored += 1;
    batch.push(
      readings.putReading(
        AUTO_2,
        reading(at, {
          milk_volume: 2000 + (i % 72) * 60,
          temp1: 3.5 + (i % 12) / 10,
          temp2: 14 + (i % 5),
          // The agitator rests 20 minutes in each hour.
          agitator_status: i % 6 < 2 ? 0 : 1,
          // Off mains for an hour two days ago.
          battery_status: i >= COUNT - 300 && i < COUNT - 294 ? '0x0A' : '0x0B',
          state_machine: i % 72 < 12 ? 'milking' : 'storage',
          quality: { currentEstCFU: 4 + (i % 30) / 20, pickupEstCFU: 4.6 },
        }),
        '{}',
      ),
    );
    if (batch.length >= 32) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  const todayUtc = dayOf(new Date().toISOString());
  for (const d of [...days].filter((x) => x < todayUtc)) await readings.compactDay(AUTO_2, d);
  await putActivity('collection', now - 30 * HOUR, now - 29 * HOUR);
  await putActivity('cip', now - 29 * HOUR, now - 28 * HOUR);
  await putActivity('milking', now - 8 * HOUR, now - 6 * HOUR);
  await putActivity('storage', now - 8 * HOUR, null);
}, 180_000);

/** A signed-in operator on `path` in New Zealand time, with the API calls the page makes. */
const openAs = async (email: string, path: string, { width = 1280, phone = false } = {}) => {
  const context = await env.browser.newContext({
    viewport: { width, height: phone ? 800 : 900 },
    acceptDownloads: true,
    timezoneId: ZONE,
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  const calls: Request[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${env.stack.facts.web}/api/`)) calls.push(r);
  });
  await signInAt(page, env.web, email, path);
  return { context, page, calls };
};
const typesOf = (calls: readonly Request[]) => calls.map((r) => new URLSearchParams(r.postData() ?? '').get('type'));

/** What a chart draws, read from its chart.js instance: each dataset's label and point count, and the shaded bands. */
const READ_CHART = `(chart) => {
  if (!chart) return null;
  const shaded = (chart.options.plugins.bands && chart.options.plugins.bands.shaded) || [];
  return {
    datasets: chart.data.datasets.map((d) => [d.label, d.data.length]),
    shaded: shaded.map((s) => ({ colour: s.colour, bands: s.bands.length })),
    yMin: chart.scales.y.min,
  };
}`;
interface ChartFacts {
  readonly datasets: [string, number][];
  readonly shaded: { colour: string; bands: number }[];
  readonly yMin: number;
}
const chartFacts = (page: Page, name: string) => readChart<ChartFacts | null>(page, name, READ_CHART);

const fillForm = async (page: Page, values: { supply?: string; vat?: string; from?: string; to?: string }) => {
  const form = page.getByRole('form');
  if (values.supply !== undefined) await form.getByLabel(/^Supply Number/).fill(values.supply);
  if (values.vat !== undefined) await form.getByLabel(/^Vat Number/).fill(values.vat);
  if (values.from !== undefined) await form.getByLabel(/^From/).fill(values.from);
  if (values.to !== undefined) await form.getByLabel(/^To/).fill(values.to);
};

describe.runIf(run)('Milk Quality view in Chromium', () => {
  it('the Milk Quality user looks up the Auto farm by its 5-digit number: an empty vat is marked with nothing sent; then charts, last activities, quality, shading and the CSV', async () => {
    const { context, page, calls } = await openAs('milkquality@vatman.local', '/dts/fonterra/milkquality');
    await withShot(page, 'milk-quality', async () => {
      await page.getByRole('form', { name: 'Milk quality data' }).waitFor();
      expect(await page.getByRole('heading', { level: 1, name: 'Milk Quality' }).count()).toBe(1);

      // The vat number left empty: marked, and no lookup is sent.
      await fillForm(page, { supply: '50412', from: fromDay, to: today });
      await page.getByRole('button', { name: 'View' }).click();
      await page.getByText('Required Field').waitFor();
      expect(await page.getByLabel(/^Vat Number/).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('Required Field').count()).toBe(1);
      await page.getByRole('button', { name: 'Download' }).click();
      await page.waitForTimeout(300);
      expect(typesOf(calls)).not.toContain('MILK_QUALITY_DATA');

      await fillForm(page, { vat: '2' });
      const [response] = await Promise.all([
        page.waitForResponse((r) => new URLSearchParams(r.request().postData() ?? '').get('type') === 'MILK_QUALITY_DATA'),
        page.getByRole('button', { name: 'View' }).click(),
      ]);
      expect(response.status()).toBe(200);
      expect(Object.fromEntries(new URLSearchParams(response.request().postData() ?? ''))).toMatchObject({ supplyNumber: 'FON50412', vatNumber: '2', fromDate: fromDay, toDate: today });
      expect(await page.getByLabel(/^Vat Number/).getAttribute('aria-invalid')).toBe('false');

      await page.getByRole('img', { name: 'Quality Estimates' }).waitFor();
      await page.getByText(`FON50412 (Rimu Valley), Vat 2: ${stored.toLocaleString('en-NZ')} readings`).waitFor();
      const volume = await chartFacts(page, 'Milk Volume');
      expect(volume?.datasets).toEqual([['Milk Volume', stored]]);
      expect(volume?.yMin).toBe(0);
      const temps = await chartFacts(page, 'Temperatures');
      expect(temps?.datasets.map(([label]) => label)).toEqual(['Vat', 'Inlet', 'Plate', 'Ambient', 'CIP', 'Milk In', 'Water In']);
      expect(temps?.datasets[0]?.[1]).toBe(stored);
      const quality = await chartFacts(page, 'Quality Estimates');
      expect(quality?.datasets.slice(0, 2)).toEqual([
        ['currentEstCFU', stored],
        ['pickupEstCFU', stored],
      ]);

      // The last activities in the range, with their start and end in the farm's time.
      const activities = page.getByLabel('Last activities');
      const when = (t: number) => {
        const p = Object.fromEntries(
          new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
            .formatToParts(new Date(t))
            .map((x) => [x.type, x.value]),
        );
        return `${p['day']} ${p['month']} ${p['year']} ${p['hour']}:${p['minute']}`;
      };
      await expect.poll(() => activities.textContent()).toContain(`Last Milking${when(now - 8 * HOUR)} – ${when(now - 6 * HOUR)}`);
      expect(await activities.textContent()).toContain(`Last Collection${when(now - 30 * HOUR)} – ${when(now - 29 * HOUR)}`);
      expect(await activities.textContent()).toContain(`Last CIP${when(now - 29 * HOUR)} – ${when(now - 28 * HOUR)}`);
      expect(await activities.textContent()).toContain(`Last Storage${when(now - 8 * HOUR)} – ongoing`);

      // The toggles shade every chart: agitator stops, the hour off mains, the outage.
      expect((await chartFacts(page, 'Milk Volume'))?.shaded).toEqual([]);
      await page.getByRole('switch', { name: 'Agitator Stopped' }).check();
      await page.getByRole('switch', { name: 'On Battery' }).check();
      await page.getByRole('switch', { name: 'Data Outage' }).check();
      await expect.poll(async () => (await chartFacts(page, 'Temperatures'))?.shaded.length).toBe(3);
      const shaded = (await chartFacts(page, 'Milk Volume'))?.shaded ?? [];
      expect(shaded.map((s) => s.colour)).toEqual(['rgb(240 168 48 / 25%)', 'rgb(91 103 117 / 20%)', 'rgb(198 40 40 / 28%)']);
      expect(shaded[0]?.bands).toBeGreaterThan(100);
      expect(shaded.slice(1).map((s) => s.bands)).toEqual([1, 1]);
      await shot(page, 'milk-quality-charts');

      // Download: the spec's columns, one row per reading shown, the farm's times.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
      expect(download.suggestedFilename()).toBe(`FON50412-vat2-${fromDay}-${today}.csv`);
      const [header, ...rows] = (await readFile(await download.path(), 'utf8')).split('\r\n').filter((l) => l !== '');
      expect(header).toBe('DateTime,Volume,Vat Temperature,Inlet Temperature,Stirrer,currentEstCFU,pickupEstCFU,phystate');
      expect(rows).toHaveLength(stored);
      const first = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(FIRST));
      const p = Object.fromEntries(first.map((x) => [x.type, x.value]));
      expect(rows[0]).toBe(`${p['day']} ${p['month']} ${p['year']} ${p['hour']}:${p['minute']}:${p['second']},2000,3.5,14,0,4,4.6,milking`);
    });
    await context.close();
  });
});

describe.runIf(run)('Westlands view in Chromium', () => {
  it('the Westlands user gets a tab per Westlands farm, and a supply number of another supplier is refused with a clear message (403)', async () => {
    const { context, page } = await openAs('westlands@vatman.local', '/dts/westlands/data');
    await withShot(page, 'westlands-data', async () => {
      const tablist = page.getByRole('tablist', { name: 'Westlands farms' });
      await tablist.waitFor();
      expect(await tablist.getByRole('tab').allTextContents()).toEqual(['WES118']);
      expect(await tablist.getByRole('tab', { name: 'WES118' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.getByLabel(/^Supply Number/).inputValue()).toBe('WES118');

      // The Auto farm supplies the main dairy company: refused by the server, said plainly.
      await fillForm(page, { supply: 'FON50412', vat: '2', from: fromDay, to: today });
      const [refused] = await Promise.all([
        page.waitForResponse((r) => new URLSearchParams(r.request().postData() ?? '').get('type') === 'WESTLANDS_DATA'),
        page.getByRole('button', { name: 'View' }).click(),
      ]);
      expect(refused.status()).toBe(403);
      await page.getByRole('alert').filter({ hasText: 'FON50412 is not a Westlands supply number.' }).waitFor();
      expect(await page.getByRole('img', { name: 'Milk Volume' }).count()).toBe(0);

      // The tab's own farm by its 3 characters (the WES prefix): its charts.
      await fillForm(page, { supply: '118', vat: '1' });
      const [ok] = await Promise.all([
        page.waitForResponse((r) => new URLSearchParams(r.request().postData() ?? '').get('type') === 'WESTLANDS_DATA'),
        page.getByRole('button', { name: 'View' }).click(),
      ]);
      expect(ok.status()).toBe(200);
      expect(new URLSearchParams(ok.request().postData() ?? '').get('supplyNumber')).toBe('WES118');
      await page.getByRole('img', { name: 'Temperatures' }).waitFor();
      await page.getByText(/^WES118 \(Matai Road\), Vat 1:/).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    });
    await context.close();
  });
});

describe.runIf(run)('on a phone (375 px)', () => {
  it('the form, toggles and charts fit the screen: nothing scrolls sideways', async () => {
    const { context, page } = await openAs('milkquality@vatman.local', '/dts/fonterra/milkquality', { width: 375, phone: true });
    await withShot(page, 'milk-quality-phone', async () => {
      await page.getByRole('form', { name: 'Milk quality data' }).waitFor();
      await fillForm(page, { supply: '50412', vat: '2', from: fromDay, to: today });
      await page.getByRole('button', { name: 'View' }).click();
      await page.getByRole('img', { name: 'Quality Estimates' }).waitFor();
      await page.getByRole('switch', { name: 'Data Outage' }).check();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      for (const name of ['Milk Volume', 'Temperatures', 'Quality Estimates']) {
        const box = await page.getByRole('img', { name }).boundingBox();
        expect(box?.x).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
      }
      await shot(page, 'milk-quality-phone');
    });
    await context.close();
  });
});
