import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import type { AlertsRepository } from '../../lambdas/ports/alerts';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { makeDairyGatewayClient } from '../../lambdas/adapters/dairy-company/gateway-client';
import { makeDairyExporter } from '../../lambdas/dairy/exporter';
import { createLogger } from '../../lambdas/lib/logger';
import type { Notification } from '../../shared/alerts/types';
import { calibrationCollectionSchema } from '../../shared/api/actions/calibration';
import { vatLogSchema } from '../../shared/api/actions/farmer-log-fonterra';
import { averageDiameter, calibrateRow, type CalibrationRow } from '../../shared/calibration/formula';
import type { Device } from '../../shared/entities/device';
import type { Activity, ActivityPoint } from '../../shared/telemetry/activities';
import { telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { toReading } from '../../shared/telemetry/reading';
import { camelOf, withDefaults } from '../../shared/watchman/settings';
import { startTestStack } from '../support/local-stack';

/**
 * A simulated week of a dairy-company farm (the Pro farm, 31245, two vats)
 * reaches the company's gateway stand-in exactly once per event, through a 10-minute outage, and
 * the farmer's event log shows it. The exporter runs on its own clock (the stack's minute schedule
 * is off); the week's milkings, collections and exceptions are written through the repositories
 * the ingest and the alert engine write them with, as the clock passes their end.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TOKEN = 'local-dairy-gateway-token';
const WEEK_START = Math.floor((Date.now() - 9 * DAY) / DAY) * DAY;
const iso = (t: number) => new Date(t).toISOString();

let stack: Awaited<ReturnType<typeof startTestStack>>;
let farms: FarmRepository;
let readings: ReadingsRepository;
let alerts: AlertsRepository;
let devices: Device[];

/** What the week holds per vat: litres after the morning and the afternoon milking, collected at 19:00. */
const LITRES: Record<number, readonly [number, number]> = { 1: [6000, 11000], 2: [4000, 8000] };
const litresPerMm = (d: Device) => (Math.PI * d.vat_diameter ** 2) / 4_000_000;
/** The radar distance of a true volume (the vat's geometry is the stored config: the tanker reads the truth). */
const radarOf = (d: Device, litres: number) => Math.round(d.vat_max_height - (litres > 0 ? litres / litresPerMm(d) + d.wedgeHeight : 20));

interface Planned {
  readonly end: number;
  readonly write: () => Promise<void>;
  readonly key: string;
}

const point = (t: number, litres: number, temp1: number): ActivityPoint => ({ published_at: iso(t), milk_volume: litres, temp1, temp2: null, temp3: null });

const plan = (): Planned[] => {
  const out: Planned[] = [];
  for (let day = 0; day < 7; day += 1) {
    const d0 = WEEK_START + day * DAY;
    for (const device of devices) {
      const [morning, evening] = LITRES[device.vat_number] ?? [0, 0];
      const activity = (a: Activity) => () => readings.putActivity({ ...a, device_id: device._id, farm_id: 'farm-pro' }, 1);
      const milk = (start: number, end: number, from: number, to: number): Planned => ({
        end,
        write: activity({ kind: 'milking', start: point(start, from, 12), end: point(end, to, 6) }),
        key: `${device.vat_number}:milkingevent:${iso(start)}`,
      });
      out.push(milk(d0 + 4.5 * HOUR, d0 + 5.75 * HOUR, 0, morning), milk(d0 + 15 * HOUR, d0 + 16 * HOUR + 10 * MIN, morning, evening));
      const cStart = d0 + 19 * HOUR;
      const cEnd = cStart + 40 * MIN;
      out.push({
        end: cEnd,
        key: `${device.vat_number}:collectionevent:${iso(cStart)}`,
        write: async () => {
          await readings.writeReadings(
            [
              [cStart, evening],
              [cEnd, 0],
            ].map(([t = 0, litres = 0]) => ({
              deviceId: device._id,
              reading: toReading(telemetryMessageSchema.parse({ published_at: iso(t), radar_distance: radarOf(device, litres), temp1: 3.9, state_machine: 'storage' }), device),
              raw: '{}',
            })),
          );
          await activity({ kind: 'collection', start: point(cStart, evening, 3.9), end: point(cEnd, 0, 3.9) })();
          // The tanker's own meter: the truth, with the stand-in's noise (and vat 2 4 % low).
          stack.dairyGateway.tanker({ supplierId: '31245', vatId: device.vat_number, at: iso(cStart + 5 * MIN), litres: evening, temperature: 3.9 });
        },
      });
    }
    const exception = (vat: number, type: 1003 | 1201, t: number, extra: Partial<Notification>): Planned => {
      const device = devices.find((d) => d.vat_number === vat) as Device;
      return {
        end: t,
        key: `${vat}:vatexceptions:${iso(t)}`,
        write: async () => {
          await alerts.raise(
            {
              _id: `${iso(t)}~${device._id}~${type}`,
              farm_id: 'farm-pro',
              type,
              status: 1,
              data: { published_at: iso(t), temp1: 4, milk_volume: 9000, agitator_status: 1 },
              device: { _id: device._id, name: device.name, vat_number: vat },
              created_at: iso(t),
              ...extra,
            },
            false,
          );
        },
      };
    };
    out.push(exception(1, 1003, d0 + 10 * HOUR, { quality: { value: 5.4 } }));
    if (day === 2) out.push(exception(2, 1201, d0 + 16 * HOUR + 20 * MIN, { lateMilking: { end_time_current: iso(d0 + 16 * HOUR + 20 * MIN), end_time_schedule: iso(d0 + 15 * HOUR) } }));
  }
  return out.sort((a, b) => a.end - b.end);
};

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  const doc = createDocumentClient();
  farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  alerts = dynamoAlertsRepository(doc, stack.facts.dynamodb.alertsTable);
  devices = (await farms.listDevicesOfFarm('farm-pro')).filter((d) => d.status === 1);
  const farm = await farms.getFarm('farm-pro');
  if (!farm) throw new Error('no farm-pro');
  await farms.putFarm({ ...farm, fonterra_api_status: true });
}, 180_000);
afterAll(async () => stack?.stop());

describe('the dairy company link over a simulated week', () => {
  const OUTAGE_FROM = WEEK_START + 2 * DAY + 19 * HOUR + 35 * MIN;
  const OUTAGE_TO = OUTAGE_FROM + 10 * MIN;
  let expected: string[] = [];

  it('sends every milking, collection and exception once, through a 10-minute gateway outage', async () => {
    let clock = WEEK_START;
    const exporter = makeDairyExporter({
      farms,
      readings,
      alerts,
      dairy: dynamoDairyRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable),
      watchman: dynamoWatchmanRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable),
      gateway: makeDairyGatewayClient(stack.facts.dairyGateway, async () => TOKEN),
      now: () => new Date(clock),
      log: createLogger({ test: 'dairy-link' }, 'error'),
    });
    const planned = plan();
    expected = planned.map((p) => p.key).sort();
    let next = 0;
    const end = WEEK_START + 7 * DAY + HOUR;
    while (clock <= end) {
      while (next < planned.length && (planned[next]?.end ?? Infinity) <= clock) await planned[next++]?.write();
      stack.dairyGateway.outage(clock >= OUTAGE_FROM && clock < OUTAGE_TO ? Number.POSITIVE_INFINITY : 0);
      await exporter.run();
      // Minute steps around the outage, half-hours elsewhere.
      clock += clock >= OUTAGE_FROM - 10 * MIN && clock < OUTAGE_TO + 20 * MIN ? MIN : 30 * MIN;
    }
    stack.dairyGateway.outage(0);

    const received = stack.dairyGateway.received().filter((e) => e.supplierId === '31245');
    const keys = received.map((e) => (e.key ?? '').replace('vatman:farm-pro:', '')).sort();
    expect(keys).toEqual(expected);
    expect(expected).toHaveLength(7 * 6 + 7 + 1);
    // The outage really happened and was ridden out by retries, not by luck.
    const refusedWhileDown = stack.dairyGateway.requests().filter((r) => r.status === 503);
    expect(refusedWhileDown.length).toBeGreaterThanOrEqual(3);
    const collection = received.find((e) => e.kind === 'collectionevent');
    expect(collection?.body).toMatchObject({ CollectionOccurredDuringMilking: false, VatCollectionDetails: [expect.objectContaining({ VatVolumeAfterCollection: 0 })] });
  }, 300_000);

  it("shows the farmer each vat's last reports; another farm's farmer and a stranger get 403", async () => {
    const [farmer, west, stranger] = await Promise.all(['farmer@vatman.local', 'westfarmer@vatman.local', 'newfarmer@vatman.local'].map((e) => stack.signIn(e)));
    const res = await stack.post('/api/farmer/log/fonterra', { type: 'FARMER_LOG_FONTERRA', farm: 'farm-pro' }, farmer);
    expect(res.status).toBe(200);
    const log = vatLogSchema.array().parse(res.body);
    expect(log.map((v) => v.vat)).toEqual([1, 2]);
    const lastDay = WEEK_START + 6 * DAY;
    for (const v of log) {
      expect(v.activity.map((r) => [r.kind, r.event_at, r.state])).toEqual([
        ['milkingevent', iso(lastDay + 15 * HOUR), 'sent'],
        ['collectionevent', iso(lastDay + 19 * HOUR), 'sent'],
      ]);
      expect(v.activity[1]?.attempts.at(-1)).toMatchObject({ status: 200, message: 'CollectionEvent updated for SupplierID: 31245' });
    }
    expect(log[0]?.alert[0]).toMatchObject({ kind: 'vatexceptions', state: 'sent', request: { Type: 'ApcHigh', Description: { APC: 5.4 } } });
    expect(log[1]?.alert[0]).toMatchObject({ request: { Type: 'LateMilking', Description: { Limit: '01:20:00' } } });
    // The outage's collection shows its failed tries (the gateway's 503) before the success.
    const all = await dynamoDairyRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable).listEvents('farm-pro');
    const retried = all.filter((e) => e.attempts.some((a) => a.status === 503));
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((e) => e.state === 'sent' && e.attempts.at(-1)?.status === 200)).toBe(true);
    for (const token of [west, stranger]) expect((await stack.post('/api/farmer/log/fonterra', { type: 'FARMER_LOG_FONTERRA', farm: 'farm-pro' }, token)).status).toBe(403);
  });

  it("joins the week's collections with the company's dockets; the 4 %-off vat is found by the average diameter", async () => {
    const [admin, installer, farmer] = await Promise.all(['admin@vatman.local', 'installer@vatman.local', 'farmer@vatman.local'].map((e) => stack.signIn(e)));
    const fields = { type: 'COLLECTIONS', amount: 'ALL', supplyNumber: ' 31245 ', vatNumber: '2' };
    expect((await stack.post('/api/calibration', fields, farmer)).status).toBe(403);
    const res = await stack.post('/api/calibration', fields, installer);
    expect(res.status).toBe(200);
    const rows = calibrationCollectionSchema.array().parse(res.body);
    expect(rows).toHaveLength(7);
    for (const r of rows) {
      expect(r.volume_source).toBe('docket');
      expect(Math.abs((r.fonterra_volume ?? 0) - 8000 * 0.96)).toBeLessThanOrEqual(25);
      expect(r.start_adjust?.radar_distance).toBeGreaterThan(0);
    }
    const device = devices.find((d) => d.vat_number === 2) as Device;
    const config = { height: device.vat_max_height, diameter: device.vat_diameter, wedgeHeight: device.wedgeHeight, volumeOffset: device.vat_volume_offset };
    const table: CalibrationRow[] = rows.map((r) => ({
      startRadar: r.start_adjust?.radar_distance ?? null,
      endRadar: r.end_adjust?.radar_distance ?? null,
      fonterraVolume: r.fonterra_volume,
      fonterraTemperature: r.fonterra_temperature,
      temperature: r.start.temp1,
      omit: r.omit,
    }));
    expect(table.every((r) => calibrateRow(r, config).volumeRed)).toBe(true);
    const fixed = { ...config, diameter: averageDiameter(table, config) as number };
    expect(table.some((r) => calibrateRow(r, fixed).volumeRed)).toBe(false);

    const vatConfig = await stack.post('/api/calibration', { type: 'VAT_CONFIG', supplyNumber: '31245', vatNumber: '2' }, admin);
    expect(vatConfig.body).toEqual({ vat_size: 11000, vat_max_height: 2719, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0, timezone: 'Pacific/Auckland' });
    const unknown = await stack.post('/api/calibration', { type: 'VAT_CONFIG', supplyNumber: 'FON00000', vatNumber: '1' }, admin);
    expect(unknown).toEqual({ status: 422, body: { message: 'No such farm' } });
  });

  it("lists RECENT collections over Watchman's saved calibration days", async () => {
    const admin = await stack.signIn('admin@vatman.local');
    const recent = async () => calibrationCollectionSchema.array().parse((await stack.post('/api/calibration', { type: 'COLLECTIONS', amount: 'RECENT', supplyNumber: '31245', vatNumber: '2' }, admin)).body);
    const save = async (changes: Record<string, number>) => {
      const settings = { ...withDefaults(undefined), ...changes };
      const fields = Object.fromEntries(Object.entries(settings).map(([k, v]) => [camelOf(k), v]));
      expect((await stack.post('/api/watchman', { type: 'SAVE_SETTINGS', ...fields }, admin)).status).toBe(200);
    };
    expect(await recent()).toHaveLength(7);
    // The week's collections were 2 to 8 days ago: 5 calibration days keep the last few.
    await save({ calibration_days: 5 });
    const fewer = await recent();
    const since = Date.now() - 5 * DAY;
    expect(fewer.length).toBeGreaterThan(0);
    expect(fewer.length).toBeLessThan(7);
    expect(fewer.every((r) => Date.parse(r.start.published_at) >= since)).toBe(true);
    await save({});
    expect(await recent()).toHaveLength(7);
  });
});
