import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoPickupRepository } from '../../lambdas/adapters/dynamodb/pickups-repository';
import type { PickupRepository } from '../../lambdas/ports/pickups';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { activityId, pointOf, type Activity } from '../../shared/telemetry/activities';
import { browserTestFile, farmContext, shot, signIn, withShot } from '../support/browser';
import { reading, writeSeries } from '../support/reading-series';

/**
 * In Chromium against the local stack: on Kowhai Flats (farm-lite, not a
 * dairy-company farm, one vat) a storage of 8 hours with an agitator stop and a 'Temperature over
 * 6°C' alert in it; the Alerts tab's View detail opens the storage page (farmer §2.7) with the red
 * alert box and the charts; the dashboard's Submit Pickup opens /dts/pickup (§2.14), where empty
 * required fields are flagged without a call and a filled form is stored and answered with
 * 'Pickup Submitted'. Both at 1280 and at 375 px wide. Readings, the storage and the alert are
 * written straight through the repositories (this stack has no simulator).
 */
const env = browserTestFile('storage-pages');
let pickups: PickupRepository;

const { run } = env;
const FARM = 'farm-lite';
const DEVICE = 'dev-ocd40721-1';
const MIN = 60_000;
const start = Math.floor(Date.now() / MIN) * MIN - 8 * 60 * MIN;
const at = (m: number) => new Date(start + m * MIN).toISOString();
const storage: Activity = {
  kind: 'storage',
  start: pointOf(reading(at(0), { milk_volume: 400, temp1: 11 })),
  end: null,
};
const STORAGE_ID = activityId(DEVICE, storage);
const ALERT_ID = `${at(300)}~${DEVICE}~102`;

beforeAll(async () => {
  if (!run) return;
  const doc = createDocumentClient();
  const readings = dynamoReadingsRepository(doc, env.stack.facts.dynamodb.readingsTable);
  pickups = dynamoPickupRepository(doc, env.stack.facts.dynamodb.farmsTable);
  // Milk cooling from 11 °C, rising volume, the agitator stopped from minute 200 to 260.
  await writeSeries(readings, DEVICE, start, 8 * 60, (t, m) =>
    reading(new Date(t).toISOString(), {
      milk_volume: 400 + Math.min(m, 120) * 50,
      milk_level: 200 + Math.min(m, 120) * 6,
      temp1: m < 120 ? 11 - m * 0.05 : 5 + (m % 60) / 30,
      agitator_status: m >= 200 && m < 260 ? 0 : 1,
      state_machine: m < 120 ? 'milking' : 'storage',
    }),
  );
  await readings.putActivity({ ...storage, device_id: DEVICE, farm_id: FARM }, 1);
  await readings.putActivity({ kind: 'agitator_stop', device_id: DEVICE, farm_id: FARM, start: pointOf(reading(at(200))), end: pointOf(reading(at(260))) }, 1);
  await dynamoAlertsRepository(doc, env.stack.facts.dynamodb.alertsTable).raise(
    {
      _id: ALERT_ID,
      farm_id: FARM,
      type: 102,
      status: 1,
      data: { published_at: at(300), temp1: 6.4, milk_volume: 6400, agitator_status: 1 },
      device: { _id: DEVICE, name: 'vm-ocd40721-1', vat_number: 1 },
      created_at: at(300),
    },
    false,
  );
}, 180_000);

/** Signed in as the demo farmer with Kowhai Flats selected (the farm cookie, farmer §3). */
const visit = async (path: string, width: number): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await farmContext(env.browser, env.web, FARM, { width, timezoneId: 'Pacific/Auckland' });
  const page = await context.newPage();
  await page.goto(`${env.web}/dts/login`);
  await signIn(page, 'farmer@vatman.local');
  await page.waitForURL((url) => url.pathname !== '/dts/login');
  await page.goto(`${env.web}${path}`);
  return { context, page };
};

/** Nothing wider than the viewport (the 375 px rule). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    // Runs in the page; the test's tsconfig has no DOM types.
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

describe.runIf(run)('storage pages in Chromium', () => {
  it.each([1280, 375])('at %i px the Alerts tab’s View detail opens the storage with its alert box and charts', async (width) => {
    const { context, page } = await visit('/dts/notification', width);
    await withShot(page, `storage-from-alert-${width}-failed`, async () => {
      await page.getByRole('button', { name: /^Temperature over 6°C/ }).click();
      await page.getByRole('button', { name: 'View detail' }).click();
      await page.waitForURL((url) => url.pathname === `/dts/storage/${encodeURIComponent(STORAGE_ID)}/alert/${encodeURIComponent(ALERT_ID)}`);
      await page.getByRole('heading', { level: 1, name: 'Vat 1' }).waitFor();
      const box = page.getByRole('alert');
      await box.waitFor();
      expect(await box.textContent()).toContain('Temperature over 6°C');
      expect(await box.textContent()).toContain('Milk over 6C');
      expect(await box.textContent()).toContain('6.4 °C');
      const card = page.getByRole('region', { name: 'Milk storage data' });
      expect(await card.getByText('Agitator Stopped').isVisible()).toBe(true);
      await card.getByRole('img', { name: 'Vat 1 storage volume' }).waitFor();
      await card.getByRole('img', { name: 'Vat 1 storage temperatures' }).waitFor();
      const box2 = await card.getByRole('img', { name: 'Vat 1 storage volume' }).boundingBox();
      expect(box2?.height).toBe(300);
      expect(box2?.width).toBeGreaterThan(width === 375 ? 250 : 600);
      expect(await overflow(page)).toBe(0);
      await shot(page, `storage-page-${width}`);
    });
    await context.close();
  }, 60_000);

  it('at 375 px: More opens the storage data, which opens the storage; the agitator stops and the empty collections list fit', async () => {
    const { context, page } = await visit('/dts/dashboard', 375);
    await withShot(page, 'storage-data-375-failed', async () => {
      await page.getByRole('region', { name: 'Milk storage data' }).getByRole('link', { name: 'More' }).click();
      await page.getByRole('heading', { level: 1, name: 'Milk storage data' }).waitFor();
      const vat1 = page.getByRole('region', { name: 'Vat 1' });
      await vat1.getByText('In the vat').waitFor();
      expect(await overflow(page)).toBe(0);
      await shot(page, 'storage-data-page-375');
      await vat1.getByRole('link', { name: /View/ }).click();
      await page.waitForURL((url) => url.pathname === `/dts/storage/${encodeURIComponent(STORAGE_ID)}`);
      await page.getByRole('heading', { level: 1, name: 'Vat 1' }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);

      await page.goto(`${env.web}/dts/agitator`);
      const stops = page.getByRole('region', { name: 'Vat 1' });
      await stops.getByRole('listitem').first().waitFor();
      expect(await stops.getByRole('listitem').count()).toBe(1);
      expect(await stops.getByText('1 h 00 min').isVisible()).toBe(true);
      expect(await overflow(page)).toBe(0);
      await shot(page, 'agitator-375');

      await page.goto(`${env.web}/dts/collection`);
      await page.getByRole('region', { name: 'Vat 1' }).getByText('No collections in these days.').waitFor();
      expect(await overflow(page)).toBe(0);
    });
    await context.close();
  }, 60_000);

  it.each([375, 1280])('at %i px the dashboard’s Submit Pickup opens the form, which flags empty fields and stores a pickup', async (width) => {
    const { context, page } = await visit('/dts/dashboard', width);
    await withShot(page, `pickup-${width}-failed`, async () => {
      const storageCard = page.getByRole('region', { name: 'Milk storage data' });
      await storageCard.waitFor();
      expect(await storageCard.getByText(/In the vat since 8 hours ago/).isVisible()).toBe(true);
      await shot(page, `dashboard-${width}`);
      expect(await overflow(page)).toBe(0);
      await page.getByRole('link', { name: 'Submit Pickup' }).click();
      await page.getByRole('heading', { level: 1, name: 'Submit Pickup' }).waitFor();
      expect(await page.getByLabel('Vat').inputValue()).toBe('1');

      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/farmer/activity') && r.postData()?.includes('ADD_PICKUP')) sent.push(r.postData() ?? '');
      });
      await page.getByRole('button', { name: 'Submit Pickup' }).click();
      expect(await page.getByLabel('Pickup Time').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Volume (L)').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('Volume is required').isVisible()).toBe(true);
      expect(sent).toEqual([]);

      // 07:30 two hours ago would be easy to get wrong at midnight: take the time 2 hours ago as the form's local value.
      const when = await page.evaluate(() => {
        const d = new Date(Date.now() - 2 * 3_600_000);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      });
      await page.getByLabel('Pickup Time').fill(when);
      const volume = String(7000 + width);
      await page.getByLabel('Volume (L)').fill(volume);
      await page.getByLabel('Temperature (C)').fill('3.9');
      expect(await overflow(page)).toBe(0);
      await shot(page, `pickup-form-${width}`);
      await page.getByRole('button', { name: 'Submit Pickup' }).click();
      const dialog = page.getByRole('dialog', { name: 'Pickup Submitted' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Ok' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByLabel('Pickup Time').inputValue()).toBe('');
      expect(await page.getByLabel('Volume (L)').inputValue()).toBe('');
      expect(await page.getByLabel('Temperature (C)').inputValue()).toBe('');
      expect(sent).toHaveLength(1);

      const stored = (await pickups.listPickups(FARM)).find((p) => p.volume === Number(volume));
      expect(stored).toMatchObject({ farm_id: FARM, vat: 1, device_id: DEVICE, temperature: 3.9 });
      // The browser's local 'when' (Auckland), stored as the same instant in UTC.
      const local = await page.evaluate((text) => new Date(text).toISOString(), when);
      expect(stored?.datetime).toBe(local);
    });
    await context.close();
  }, 60_000);
});
