import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { makeDairyGatewayClient } from '../../lambdas/adapters/dairy-company/gateway-client';
import { makeDairyExporter } from '../../lambdas/dairy/exporter';
import { TANKER_ALERT_TYPE } from '../../lambdas/alerts/tanker-check';
import { createLogger } from '../../lambdas/lib/logger';
import { toWireTime } from '../../shared/api/actions/farmer-pickup';
import type { Notification } from '../../shared/alerts/types';
import type { Device } from '../../shared/entities/device';
import { withDefaults } from '../../shared/watchman/settings';
import { startTestStack } from '../support/local-stack';

/**
 * Dockets against the vat: a vat whose readings are 4 % off the tanker's raises
 * 'Vat reading differs from tanker' once, through the local stack. The Pro farm (31245, a
 * dairy-company farm) has its vat 2 read 4 % off by the dairy gateway stand-in's tanker meter; its
 * dockets come in through the dairy sync (the real exporter on its own clock). farm-lite (no dairy
 * company) gets its tanker figures from the farmer's own pickups, entered through the API.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TOKEN = 'local-dairy-gateway-token';
const iso = (t: number) => new Date(t).toISOString();
const START = Math.floor((Date.now() - 20 * DAY) / DAY) * DAY;

let stack: Awaited<ReturnType<typeof startTestStack>>;
let farms: FarmRepository;
let readings: ReadingsRepository;
let farmer: string;

/** A finished collection of `litres` that began at `t` (what the ingest's detector writes). */
const collect = async (device: Device, t: number, litres: number) => {
  const point = (at: number, v: number) => ({ published_at: iso(at), milk_volume: v, temp1: 3.9, temp2: null, temp3: null });
  await readings.putActivity({ kind: 'collection', start: point(t, litres), end: point(t + 40 * MIN, 0), device_id: device._id, farm_id: device.farm_id }, 1);
};
const notificationsOf = async (farm: string) => {
  const res = await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm }, farmer);
  expect(res.status).toBe(200);
  return (res.body as Notification[]).filter((n) => n.type === TANKER_ALERT_TYPE);
};

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  const doc = createDocumentClient();
  farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  const farm = await farms.getFarm('farm-pro');
  if (!farm) throw new Error('no farm-pro');
  await farms.putFarm({ ...farm, fonterra_api_status: true });
  farmer = await stack.signIn('farmer@vatman.local');
}, 180_000);
afterAll(async () => stack?.stop());

describe('dockets against the vat', () => {
  it("raises alert 702 once for the dairy-company farm's 4 %-off vat, never for the true one, and shows each difference", async () => {
    const devices = (await farms.listDevicesOfFarm('farm-pro')).filter((d) => d.status === 1);
    let clock = START;
    const exporter = makeDairyExporter({
      farms,
      readings,
      alerts: dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable),
      dairy: dynamoDairyRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable),
      watchman: dynamoWatchmanRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable),
      gateway: makeDairyGatewayClient(stack.facts.dairyGateway, async () => TOKEN),
      now: () => new Date(clock),
      log: createLogger({ test: 'tanker-difference' }, 'error'),
    });
    const raisedAfter: number[] = [];
    for (let day = 0; day < 8; day += 1) {
      const t = START + day * DAY + 19 * HOUR;
      for (const d of devices) {
        await collect(d, t, 9000 + 100 * day);
        stack.dairyGateway.tanker({ supplierId: '31245', vatId: d.vat_number, at: iso(t + 5 * MIN), litres: 9000 + 100 * day, temperature: 3.9 });
      }
      clock = t + HOUR;
      await exporter.run();
      raisedAfter.push((await notificationsOf('farm-pro')).length);
    }
    // Nothing before the 5th collection; one alert from then on, however many runs and collections follow.
    expect(raisedAfter).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    const [alert] = await notificationsOf('farm-pro');
    expect(alert).toMatchObject({ type: 702, device: { vat_number: 2 }, data: { published_at: iso(START + 4 * DAY + 19 * HOUR + 40 * MIN) } });
    expect(alert?.detail).toMatch(/^median \+4\.\d % over the last 5 collections .*ask for a vat calibration$/);

    // The farmer sees each collection's drop beside the docket on /dts/collection.
    const res = await stack.post('/api/farmer/activity', { type: 'FARMER_COLLECTION_LIST', farm: 'farm-pro', startDate: iso(START + 7 * DAY).slice(0, 10), endDate: iso(START + 8 * DAY).slice(0, 10) }, farmer);
    expect(res.status).toBe(200);
    const list = (res.body as { list: { vat_number: number; volume_collected: number; tanker: { source: string; volume: number } | null; difference_percent: number | null }[] }).list;
    const vat2 = list.find((c) => c.vat_number === 2);
    const vat1 = list.find((c) => c.vat_number === 1);
    expect(vat2).toMatchObject({ volume_collected: 9700, tanker: { source: 'docket' } });
    expect(vat2?.difference_percent).toBeGreaterThan(3.5);
    expect(Math.abs(vat1?.difference_percent ?? 99)).toBeLessThan(0.5);
  }, 180_000);

  it("raises it once from the farmer's own pickups 4 % under the vat, clears when they agree, and raises it afresh after", async () => {
    const [device] = (await farms.listDevicesOfFarm('farm-lite')).filter((d) => d.status === 1);
    if (!device) throw new Error('no farm-lite vat');
    const pickup = async (day: number, factor: number) => {
      const t = START + day * DAY + 7 * HOUR;
      await collect(device, t, 8000);
      const res = await stack.post('/api/farmer/activity', { type: 'ADD_PICKUP', farm_id: 'farm-lite', vat: '1', datetime: toWireTime(t + 10 * MIN), volume: String(Math.round(8000 * factor)), temperature: '3.9' }, farmer);
      expect(res).toEqual({ status: 200, body: 'success' });
      return (await notificationsOf('farm-lite')).length;
    };
    const counts: number[] = [];
    for (let day = 0; day < 6; day += 1) counts.push(await pickup(day, 1.04));
    expect(counts).toEqual([0, 0, 0, 0, 1, 1]);
    // Pickups that agree bring the median back within 2.5 % (the third makes it so): the alert clears,
    // still listed but no longer open…
    for (let day = 6; day < 11; day += 1) counts.push(await pickup(day, 1.0));
    expect(counts.slice(6)).toEqual([1, 1, 1, 1, 1]);
    // …so the vat going off again is a new alert, once the median is off again (the third off pickup of five), and only one.
    for (let day = 11; day < 16; day += 1) counts.push(await pickup(day, 0.96));
    expect(counts.slice(11)).toEqual([1, 1, 2, 2, 2]);
  }, 180_000);

  it("matches a pickup to its collection within Watchman's saved matching minutes, as calibration does", async () => {
    const [device] = (await farms.listDevicesOfFarm('farm-lite')).filter((d) => d.status === 1);
    if (!device) throw new Error('no farm-lite vat');
    const watchman = dynamoWatchmanRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    const saved = await watchman.getSettings();
    // A collection (40 minutes) and a pickup entered 45 minutes after it ended: outside the default 30 minutes.
    const t = START + 17 * DAY + 7 * HOUR;
    await collect(device, t, 8000);
    const added = await stack.post('/api/farmer/activity', { type: 'ADD_PICKUP', farm_id: 'farm-lite', vat: '1', datetime: toWireTime(t + 85 * MIN), volume: '7900', temperature: '3.9' }, farmer);
    expect(added).toEqual({ status: 200, body: 'success' });
    const tankerOf = async () => {
      const res = await stack.post('/api/farmer/activity', { type: 'FARMER_COLLECTION_LIST', farm: 'farm-lite', startDate: iso(t).slice(0, 10), endDate: iso(t).slice(0, 10) }, farmer);
      expect(res.status).toBe(200);
      return (res.body as { list: { activity: { start: { published_at: string } }; tanker: { source: string; volume: number } | null }[] }).list.find((c) => c.activity.start.published_at === iso(t))?.tanker;
    };
    try {
      await watchman.putSettings(withDefaults({ ...saved, matching_pickup_minutes: 30 }));
      expect(await tankerOf()).toBeNull();
      await watchman.putSettings(withDefaults({ ...saved, matching_pickup_minutes: 60 }));
      expect(await tankerOf()).toMatchObject({ source: 'pickup', volume: 7900 });
    } finally {
      await watchman.putSettings(withDefaults(saved));
    }
  }, 120_000);
});
