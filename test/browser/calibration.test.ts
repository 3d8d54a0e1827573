import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { makeDairyGatewayClient } from '../../lambdas/adapters/dairy-company/gateway-client';
import { makeDairyExporter } from '../../lambdas/dairy/exporter';
import { createLogger } from '../../lambdas/lib/logger';
import { calibrationCollectionSchema, vatConfigSchema } from '../../shared/api/actions/calibration';
import { volumeThreshold } from '../../shared/calibration/formula';
import { formatWhen } from '../../frontend/src/lib/time-format';
import type { Device } from '../../shared/entities/device';
import { unitThingName } from '../../shared/entities/install';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { telemetryMessageSchema, telemetryTopic } from '../../shared/telemetry/device-message';
import { toReading } from '../../shared/telemetry/reading';
import { browserTestFile, farmContext, shot, signInAt, withShot } from '../support/browser';
import { until } from '../support/until';

/**
 * Calibration in Chromium: the Pro farm's vat 2 (31245), whose dockets the gateway
 * stand-in makes 4 % low, has five collections of the last days with their radar readings and
 * dockets; the installer loads them, sees every volume difference red, sets the diameter to the
 * average and recalculates (none red), applies (the unit, played here over MQTT, answers), and the
 * next collection, published over MQTT and measured by the ingest with the new diameter, matches
 * its docket within the red threshold. The farmer's event log then shows what went to the company.
 */
const env = browserTestFile('calibration');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const TOKEN = 'local-dairy-gateway-token';
const iso = (t: number) => new Date(t).toISOString();
let device: Device;
let mq: MqttClient;
let sync: () => Promise<unknown>;

/** The vat's true geometry is its stored config: litres → radar distance. */
const radarOf = (litres: number) => Math.round(device.vat_max_height - (litres > 0 ? litres / ((Math.PI * device.vat_diameter ** 2) / 4_000_000) + device.wedgeHeight : 20));

beforeAll(async () => {
  if (!env.run) return;
  const doc = createDocumentClient();
  const { farmsTable, readingsTable, alertsTable } = env.stack.facts.dynamodb;
  const farms = dynamoFarmRepository(doc, farmsTable);
  const readings = dynamoReadingsRepository(doc, readingsTable);
  const farm = await farms.getFarm('farm-pro');
  if (!farm) throw new Error('no farm-pro');
  await farms.putFarm({ ...farm, fonterra_api_status: true });
  device = (await farms.listDevicesOfFarm('farm-pro')).find((d) => d.vat_number === 2) as Device;
  const today = Math.floor(Date.now() / DAY) * DAY;
  for (const [i, litres] of [7800, 8200, 7600, 8400, 8000].entries()) {
    const start = today - (5 - i) * DAY + 19 * 60 * MIN;
    const end = start + 40 * MIN;
    await readings.writeReadings(
      [
        [start, litres],
        [end, 0],
      ].map(([t = 0, l = 0]) => ({
        deviceId: device._id,
        reading: toReading(telemetryMessageSchema.parse({ published_at: iso(t), radar_distance: radarOf(l), temp1: 3.9, state_machine: 'storage' }), device),
        raw: '{}',
      })),
    );
    const point = (t: number, l: number) => ({ published_at: iso(t), milk_volume: l, temp1: 3.9, temp2: null, temp3: null });
    await readings.putActivity({ kind: 'collection', start: point(start, litres), end: point(end, 0), device_id: device._id, farm_id: 'farm-pro' }, 1);
    env.stack.dairyGateway.tanker({ supplierId: '31245', vatId: 2, at: iso(start + 5 * MIN), litres, temperature: 3.9 });
  }
  // An unadjusted collection (no reading with a radar distance kept for it) and no docket: hidden
  // until the Collection Start header box is ticked, and omitted.
  const bare = today - 6 * DAY + 19 * 60 * MIN;
  await readings.putActivity(
    {
      kind: 'collection',
      start: { published_at: iso(bare), milk_volume: 8000, temp1: 3.9, temp2: null, temp3: null },
      end: { published_at: iso(bare + 40 * MIN), milk_volume: 0, temp1: 3.9, temp2: null, temp3: null },
      device_id: device._id,
      farm_id: 'farm-pro',
    },
    1,
  );
  const exporter = makeDairyExporter({
    farms,
    readings,
    alerts: dynamoAlertsRepository(doc, alertsTable),
    dairy: dynamoDairyRepository(doc, farmsTable),
    watchman: dynamoWatchmanRepository(doc, farmsTable),
    gateway: makeDairyGatewayClient(env.stack.facts.dairyGateway, async () => TOKEN),
    now: () => new Date(),
    log: createLogger({ test: 'calibration' }, 'error'),
  });
  sync = () => exporter.run();
  await sync();
  // The unit: applies what it is sent and says so.
  // The farm's controller unit is sent the settings naming the vat.
  const unit = unitThingName(DEMO_UNIT_IMEIS['farm-pro'] as string);
  mq = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'calibration-browser-test' });
  await mq.subscribeAsync(`dts/${unit}/cmd/settings`, { qos: 1 });
  mq.on('message', (_topic, payload) => {
    const { request_id, vat } = JSON.parse(payload.toString('utf8')) as { request_id: string; vat: unknown };
    if (vat !== device.vat_number) return;
    void mq.publishAsync(`dts/${unit}/cmd/reply`, JSON.stringify({ request_id, return_value: 'Settings applied' }), { qos: 1 });
  });
}, 120_000);
afterAll(async () => mq?.endAsync());

const volumeDifferences = (page: Page) => page.locator('table.calibration__table tbody tr td:nth-child(10)');

describe.skipIf(!env.run)('calibration (/dts/calibration)', () => {
  it('finds the 4 %-off vat, applies the average diameter, and the next collection matches its docket', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1500, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, env.web, 'installer@vatman.local', '/dts/calibration');
    await withShot(page, 'calibration', async () => {
      await expect(page.getByRole('button', { name: 'Load All Collections' }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Recalculate Volumes' }).isDisabled()).resolves.toBe(true);
      await page.getByLabel('Supply Number').fill(' 31245 ');
      await page.getByLabel('Vat Number').fill('2');
      await page.getByRole('button', { name: 'Load All Collections' }).click();
      await expect.poll(() => volumeDifferences(page).count(), { timeout: 15_000 }).toBe(5);
      // The vat config loaded by itself.
      await expect.poll(() => page.getByLabel('Diameter').inputValue()).toBe(String(device.vat_diameter));
      await expect.poll(() => page.locator('td[data-red="true"]:nth-child(10)').count()).toBe(5);
      // Times are the farm's (§9), named when the browser's zone differs.
      const listed = calibrationCollectionSchema.array().parse((await env.stack.post('/api/calibration', { type: 'COLLECTIONS', amount: 'ALL', supplyNumber: '31245', vatNumber: '2' }, await env.stack.signIn('installer@vatman.local'))).body);
      const farmTimes = listed.map((c) => formatWhen(c.start.published_at, 'Pacific/Auckland'));
      expect(farmTimes).toContain(await page.locator('table.calibration__table tbody tr td:nth-child(1)').first().textContent());
      // The header boxes: unadjusted collections shown on demand, omitted ones hidden on demand.
      await page.getByLabel('Show unadjusted collections').check();
      await expect.poll(() => volumeDifferences(page).count()).toBe(6);
      await page.getByLabel('Hide omitted collections').check();
      await expect.poll(() => volumeDifferences(page).count()).toBe(5);
      await page.getByLabel('Hide omitted collections').uncheck();
      await page.getByLabel('Show unadjusted collections').uncheck();
      await expect.poll(() => volumeDifferences(page).count()).toBe(5);

      // Recalculate needs height, diameter, wedge height and volume offset (operator §5).
      await page.getByLabel('Wedge Height').fill('');
      await page.getByRole('button', { name: 'Recalculate Volumes' }).click();
      await expect(page.getByText('Required Field').count()).resolves.toBe(1);
      await page.getByLabel('Wedge Height').fill(String(device.wedgeHeight));

      await page.getByRole('button', { name: 'Set Diameter To Average' }).click();
      const diameter = Number(await page.getByLabel('Diameter').inputValue());
      expect(Math.abs(diameter - device.vat_diameter * Math.sqrt(0.96))).toBeLessThanOrEqual(4);
      await page.getByRole('button', { name: 'Recalculate Volumes' }).click();
      await expect.poll(() => page.locator('td[data-red="true"]:nth-child(10)').count()).toBe(0);

      await page.getByRole('button', { name: 'Apply Settings to Vat' }).click();
      const confirm = page.getByRole('dialog', { name: 'Are you sure you want to submit this calibration' });
      await expect(confirm.getByText(`Diameter: ${diameter}`).isVisible()).resolves.toBe(true);
      await confirm.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('dialog', { name: 'Success' }).waitFor({ timeout: 15_000 });
      await shot(page, 'calibration-applied');

      const admin = await env.stack.signIn('admin@vatman.local');
      const stored = vatConfigSchema.parse((await env.stack.post('/api/calibration', { type: 'VAT_CONFIG', supplyNumber: '31245', vatNumber: '2' }, admin)).body);
      expect(stored.vat_diameter).toBe(diameter);

      // The next collection: 7,000 L really in the vat, pumped out at 1,000 L a minute.
      const t0 = Math.floor(Date.now() / MIN) * MIN - 40 * MIN;
      const litresAt = (m: number) => (m < 10 ? 7000 : Math.max(0, 7000 - (m - 9) * 1000));
      for (let m = 0; m < 25; m += 1) {
        const message = { published_at: iso(t0 + m * MIN), radar_distance: radarOf(litresAt(m)), temp1: 3.8, agitator_status: 1, state_machine: litresAt(m) > 0 ? 'storage' : 'empty' };
        await mq.publishAsync(telemetryTopic(device.name), JSON.stringify(message), { qos: 1 });
      }
      env.stack.dairyGateway.tanker({ supplierId: '31245', vatId: 2, at: iso(t0 + 12 * MIN), litres: 7000, temperature: 3.8 });
      const next = await until(
        async () => {
          await sync();
          const rows = calibrationCollectionSchema.array().parse((await env.stack.post('/api/calibration', { type: 'COLLECTIONS', amount: 'RECENT', supplyNumber: '31245', vatNumber: '2' }, admin)).body);
          const row = rows.find((r) => r.start.published_at >= iso(t0));
          return row?.fonterra_volume !== null && row?.fonterra_volume !== undefined ? row : undefined;
        },
        { timeoutMs: 30_000, everyMs: 1_000, what: 'the next collection with its docket' },
      );
      const measured = (next.start.milk_volume ?? 0) - (next.end.milk_volume ?? 0);
      expect(Math.abs(measured - (next.fonterra_volume ?? 0))).toBeLessThan(volumeThreshold(measured));
    });
    await context.close();
  }, 120_000);
});

describe.skipIf(!env.run)("the farmer's dairy-company event log (/dts/log/fonterra)", () => {
  it('shows each vat’s reports as JSON, and "No alert report" where there is none', async () => {
    await sync();
    const context = await farmContext(env.browser, env.web, 'farm-pro');
    const page = await context.newPage();
    await signInAt(page, env.web, 'farmer@vatman.local', '/dts/log/fonterra');
    await withShot(page, 'dairy-log', async () => {
      const vat2 = page.getByRole('region', { name: 'Vat 2' });
      await vat2.getByRole('heading', { name: 'Vat 2: Milking event' }).waitFor();
      await expect(vat2.getByRole('heading', { name: 'Collection event' }).isVisible()).resolves.toBe(true);
      await expect(vat2.getByRole('heading', { name: 'Exception event' }).isVisible()).resolves.toBe(true);
      await expect(vat2.locator('pre').filter({ hasText: 'CollectionEvent updated for SupplierID: 31245' }).count()).resolves.toBe(1);
      // Vat 1 reported nothing: each of its three headings says so.
      const vat1 = page.getByRole('region', { name: 'Vat 1' });
      await expect(vat1.getByRole('heading', { name: 'Vat 1: Milking event' }).isVisible()).resolves.toBe(true);
      await expect(vat1.getByText('No alert report').count()).resolves.toBe(3);
      await shot(page, 'dairy-log');
    });
    await context.close();
  }, 60_000);
});

describe.skipIf(!env.run)('the external telemetry interface page', () => {
  it("documents E2E01-E2E10, and each documented response is what the gateway stand-in answers to the page's request", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/telemetry/interface`);
    await withShot(page, 'interface-docs', async () => {
      await page.getByRole('heading', { name: 'Pre - Requisites' }).waitFor();
      const ids = Array.from({ length: 10 }, (_, i) => `E2E${String(i + 1).padStart(2, '0')}`);
      for (const id of ids) {
        const section = page.getByRole('region', { name: id });
        const url = new URL((await section.locator('dd').first().textContent()) ?? '');
        expect(await section.locator('dd').nth(2).textContent()).toBe('POST');
        const [request, response] = await section.locator('pre').allTextContents();
        const res = await fetch(`${env.stack.facts.dairyGateway}${url.pathname}`, { method: 'POST', body: request, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
        expect({ id, answer: await res.json() }).toEqual({ id, answer: JSON.parse(response ?? '') as unknown });
      }
    });
    await context.close();
  }, 60_000);
});
