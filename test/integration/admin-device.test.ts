import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { adminDeviceContracts as c, type DeviceRow, type SeriesAnswer } from '../../shared/api/actions/admin-device';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { localDayOf, localMidnight } from '../../shared/time/local-day';
import { startTestStack } from '../support/local-stack';
import { reading } from '../support/reading-series';
import { until } from '../support/until';

/** /api/admin/device through the local stack (operator §2, §7; issue "Device fleet"). */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let readings: ReadingsRepository;
let admin: string;
let installer: string;
let mq: MqttClient;

const MIN = 60_000;
const ZONE = 'Pacific/Auckland';
const PRO_1 = 'dev-31245-1';

const call = async (type: keyof typeof c, fields: Record<string, string>, token = admin) => stack.post(c[type].path, { type, ...fields }, token);
const ok = async <T,>(type: keyof typeof c, fields: Record<string, string>, token = admin) => {
  const res = await call(type, fields, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};

beforeAll(async () => {
  stack = await startTestStack();
  readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
  [admin, installer] = await Promise.all([stack.signIn('admin@vatman.local'), stack.signIn('installer@vatman.local')]);
  mq = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'admin-device-test' });
}, 180_000);
afterAll(async () => {
  await mq?.endAsync();
  await stack?.stop();
});

describe('device list', () => {
  it('lists every active demo device with its farm supply number, for Admin and Installer alike', async () => {
    const asAdmin = await ok<DeviceRow[]>('DEVICE_LIST', { isRetired: '1' });
    const asInstaller = await ok<DeviceRow[]>('DEVICE_LIST', { isRetired: '1' }, installer);
    expect(asInstaller.map((d) => d._id)).toEqual(asAdmin.map((d) => d._id));
    expect(asAdmin.length).toBe(10);
    expect(asAdmin.find((d) => d._id === PRO_1)).toMatchObject({ name: 'vm-31245-1', fonterra_id: '31245', farm_name: 'Totara Downs', vat_number: 1 });
  });

  it('retires a device with the toggle, lists it among the retired, and counts what it still sends', async () => {
    const dev = 'dev-wes118-3';
    expect(await ok<{ status: number }>('DEVICE_EDIT', { device_id: dev, status: '2' })).toMatchObject({ _id: dev, status: 2 });
    expect((await ok<DeviceRow[]>('DEVICE_LIST', { isRetired: '1' })).some((d) => d._id === dev)).toBe(false);
    await mq.publishAsync(telemetryTopic('vm-wes118-3'), JSON.stringify({ published_at: new Date(Date.now() - MIN).toISOString(), radar_distance: 1000, temp1: 4 }), { qos: 1 });
    const row = await until(async () => (await ok<DeviceRow[]>('DEVICE_LIST', { isRetired: '2' })).find((d) => d._id === dev && d.retired_messages > 0), { timeoutMs: 10_000 });
    expect(row).toMatchObject({ status: 2, retired_messages: 1 });
    await ok('DEVICE_EDIT', { device_id: dev, status: '1' });
  });

  it('refuses a status other than 1 or 2 and an unknown device', async () => {
    expect((await call('DEVICE_EDIT', { device_id: PRO_1, status: '3' })).status).toBe(422);
    expect((await call('DEVICE_EDIT', { device_id: 'no-such-device', status: '2' })).status).toBe(403);
  });

  it('loads names from the thing registry (locally the device records: nothing to rename)', async () => {
    // The registry holds the demo farms' four units (one thing per unit), none naming a vat device.
    expect(await ok('DEVICE_LOAD_NAME', {})).toEqual({ checked: 4, renamed: [] });
  });
});

describe('raw dumps by the farm\'s local day', () => {
  it('answers yesterday in New Zealand time, across the UTC midnight inside it', async () => {
    const now = Date.now();
    const yesterday = localDayOf(now - 24 * 3_600_000, ZONE);
    const start = localMidnight(yesterday, ZONE);
    const inside = [start, start + 12 * 3_600_000 + 7 * MIN, start + 24 * 3_600_000 - MIN].map((t) => new Date(t).toISOString());
    const outside = [start - MIN, start + 24 * 3_600_000].map((t) => new Date(t).toISOString());
    for (const at of [...inside, ...outside]) await readings.putReading(PRO_1, reading(at), JSON.stringify({ published_at: at, note: 'raw' }));
    const body = await ok<{ day: string; raws: { _id: string; published_at: string; raw: string }[] }>('DEVICE_ONE_RAWS', { device_id: PRO_1, days: '1' });
    expect(body.day).toBe(yesterday);
    expect(body.raws.map((r) => r.published_at)).toEqual(expect.arrayContaining(inside));
    expect(body.raws.map((r) => r.published_at)).not.toEqual(expect.arrayContaining([outside[0]]));
    expect(body.raws.some((r) => outside.includes(r.published_at))).toBe(false);
    const one = body.raws[0] as { _id: string; raw: string };
    expect(await ok('DEVICE_ONE_RAW', { _id: one._id })).toMatchObject({ device_id: PRO_1, raw: one.raw });
  });

  it('refuses days 30 and -1', async () => {
    expect((await call('DEVICE_ONE_RAWS', { device_id: PRO_1, days: '30' })).status).toBe(422);
    expect((await call('DEVICE_ONE_RAWS', { device_id: PRO_1, days: '-1' })).status).toBe(422);
  });
});

describe('gauges and series', () => {
  it('shows a reading just published over MQTT on the gauges and in the series', async () => {
    const at = new Date(Math.floor(Date.now() / MIN) * MIN - MIN).toISOString();
    await mq.publishAsync(telemetryTopic('vm-31245-1'), JSON.stringify({ published_at: at, radar_distance: 1500, temp1: 3.7, temp2: 14.2, shaft_rpm: 420, agitator_status: 1, state_machine: 'storage' }), { qos: 1 });
    const gauges = await until(async () => {
      const b = await ok<{ data: { published_at: string; temp1?: number } | null; device: { vat_max_height: number } }>('DEVICE_ONE', { device_id: PRO_1 });
      return b.data?.published_at === at ? b : undefined;
    }, { timeoutMs: 10_000 });
    expect(gauges.data).toMatchObject({ temp1: 3.7, temp2: 14.2, shaft_rpm: 420 });
    const s = await ok<SeriesAnswer>('DEVICE_ONE_SERIES', { device_id: PRO_1, days1: '0', hours1: '1', days2: '0', hours2: '0' });
    expect(s.vat.find((p) => p.published_at === at)).toMatchObject({ temp1: 3.7 });
  });

  it('pages by a span rounded up to 10 minutes, and refuses a window past the present with "No more data!"', async () => {
    const end = Date.now() - 3_600_000;
    const s = await ok<Omit<SeriesAnswer, 'vat'>>('DEVICE_ONE_SERIES_WINDOW', { device_id: PRO_1, start: new Date(end - 3 * MIN).toISOString(), end: new Date(end).toISOString() });
    expect(Date.parse(s.to) - Date.parse(s.from)).toBe(10 * MIN);
    for (const type of ['DEVICE_ONE_SERIES_TIME_RANGE', 'DEVICE_ONE_SERIES_WINDOW'] as const) {
      const future = await call(type, { device_id: PRO_1, start: new Date(Date.now()).toISOString(), end: new Date(Date.now() + 3_600_000).toISOString() });
      expect(future).toEqual({ status: 422, body: { message: 'No more data!' } });
    }
  });

  it('operator A10: DEVICE_ONE_SERIES_TIME_RANGE answers a list of readings; the window and its agitator stops come from DEVICE_ONE_SERIES_WINDOW', async () => {
    const at = new Date(Math.floor(Date.now() / MIN) * MIN - 40 * MIN).toISOString();
    await readings.putReading(PRO_1, reading(at, { milk_level: 812, temp1: 4.1, state_machine: 'storage' }), '{}');
    const fields = { device_id: PRO_1, start: new Date(Date.parse(at) - 30 * MIN).toISOString(), end: new Date(Date.parse(at) + 30 * MIN).toISOString() };
    const list = await ok<unknown>('DEVICE_ONE_SERIES_TIME_RANGE', fields);
    expect(Array.isArray(list)).toBe(true);
    expect(c.DEVICE_ONE_SERIES_TIME_RANGE.answer.parse(list).find((p) => p.published_at === at)).toMatchObject({ milk_level: 812, temp1: 4.1 });
    const window = c.DEVICE_ONE_SERIES_WINDOW.answer.parse(await ok<unknown>('DEVICE_ONE_SERIES_WINDOW', fields));
    expect(window).toMatchObject({ from: fields.start, to: fields.end, agitatorData: { listStop: expect.any(Array) } });
    expect(window.points).toBeGreaterThanOrEqual(1);
    expect(window).not.toHaveProperty('vat');
  });

  it('skips the level of startup rows', async () => {
    const at = new Date(Date.now() - 90 * MIN).toISOString();
    await readings.putReading(PRO_1, reading(at, { milk_level: 999, temp1: 5, state_machine: 'startup' }), '{}');
    const s = await ok<SeriesAnswer>('DEVICE_ONE_SERIES', { device_id: PRO_1, days1: '0', hours1: '2', days2: '0', hours2: '1' });
    const p = s.vat.find((x) => x.published_at === at);
    expect(p).toMatchObject({ temp1: 5 });
    expect(p?.milk_level).toBeUndefined();
  });
});
