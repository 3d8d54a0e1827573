import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository, StoredActivity } from '../../lambdas/ports/readings';
import { milkDataSchema, milkLookupSchema, milkQualityContracts as c } from '../../shared/api/actions/milk-quality';
import { demoFarm } from '../../local/seed/demo-data';
import { pointOf, type ActivityKind } from '../../shared/telemetry/activities';
import { localDayOf } from '../../shared/time/local-day';
import { dayOf } from '../../shared/time/utc';
import { startTestStack } from '../support/local-stack';
import { reading } from '../support/reading-series';

/**
 * /api/milkquality through the local stack (operator §2, §3, §5, §6, §7): the Milk
 * Quality view reads the dairy company's farms, the Westlands view the farms whose supplier code
 * is WES (not whose number starts with WES), Admin both; farmers and strangers nothing; every
 * lookup is kept and listed for Admins.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let readings: ReadingsRepository;
const token: Record<'farmer' | 'westFarmer' | 'stranger' | 'installer' | 'milkQuality' | 'westlands' | 'admin', string> = {
  farmer: '',
  westFarmer: '',
  stranger: '',
  installer: '',
  milkQuality: '',
  westlands: '',
  admin: '',
};

const MIN = 60_000;
const HOUR = 60 * MIN;
const ZONE = 'Pacific/Auckland';
const now = Math.floor(Date.now() / MIN) * MIN;
/** Three days of readings every 5 minutes on the Auto farm's vat 2 (FON50412) and the Westlands farm's vat 1. */
const FROM = now - 3 * 24 * HOUR;
const STEP = 5 * MIN;
const COUNT = (3 * 24 * HOUR) / STEP;
/** A 40-minute gap (an outage, over the 15 minutes of §9) two days ago. */
const GAP_AT = 2 * 24 * 12;
const GAP_STEPS = 8;
const AUTO_2 = 'dev-fon50412-2';
const WES_1 = 'dev-wes118-1';
const range = { fromDate: localDayOf(FROM, ZONE), toDate: localDayOf(now, ZONE) };

const writeTrace = async (deviceId: string) => {
  const days = new Set<string>();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    if (i > GAP_AT && i < GAP_AT + GAP_STEPS) continue;
    const at = new Date(FROM + i * STEP).toISOString();
    days.add(dayOf(at));
    writes.push(
      readings.putReading(
        deviceId,
        reading(at, {
          milk_volume: 1000 + (i % 100) * 50,
          temp1: 4 + (i % 10) / 10,
          agitator_status: i % 6 === 0 ? 0 : 1,
          // Mains off for an hour a day ago: the battery shading's off and on.
          battery_status: i >= 288 * 2 && i < 288 * 2 + 12 ? '0x0A' : '0x0B',
          state_machine: i % 144 < 24 ? 'milking' : 'storage',
          quality: { currentEstCFU: 4 + (i % 20) / 10, pickupEstCFU: 4.5 },
        }),
        '{}',
      ),
    );
    if (writes.length >= 32) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  const today = dayOf(new Date().toISOString());
  await Promise.all([...days].filter((d) => d < today).map((d) => readings.compactDay(deviceId, d)));
};

const putActivity = async (deviceId: string, farmId: string, kind: ActivityKind, startMs: number, endMs: number | null) => {
  const point = (t: number) => pointOf(reading(new Date(t).toISOString(), { temp1: 4, milk_volume: 2000 }));
  const a: StoredActivity = { kind, device_id: deviceId, farm_id: farmId, start: point(startMs), end: endMs === null ? null : point(endMs) };
  await readings.putActivity(a, 1);
};

beforeAll(async () => {
  stack = await startTestStack();
  const doc = createDocumentClient();
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  const farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  // A farm whose number starts with WES but whose supplier is Open Country, and a Westlands farm whose number does not.
  await farms.putFarm(demoFarm({ _id: 'farm-wes-lookalike', fonterra_id: 'WES999', supplier: 'OCD', name: 'Lookalike', package: 'Vat-Man Lite', install_numVats: 1 }));
  await farms.putFarm(demoFarm({ _id: 'farm-westlands-2', fonterra_id: 'ZZ4411', supplier: 'WES', name: 'Kahikatea', package: 'Vat-Man Lite', install_numVats: 1 }));
  await Promise.all([writeTrace(AUTO_2), writeTrace(WES_1)]);
  await putActivity(AUTO_2, 'farm-auto', 'milking', now - 30 * HOUR, now - 28 * HOUR);
  await putActivity(AUTO_2, 'farm-auto', 'milking', now - 6 * HOUR, now - 4 * HOUR);
  await putActivity(AUTO_2, 'farm-auto', 'collection', now - 20 * HOUR, now - 19 * HOUR);
  await putActivity(AUTO_2, 'farm-auto', 'cip', now - 19 * HOUR, now - 18 * HOUR);
  await putActivity(AUTO_2, 'farm-auto', 'storage', now - 6 * HOUR, null);
  const emails = {
    farmer: 'farmer@vatman.local',
    westFarmer: 'westfarmer@vatman.local',
    stranger: 'newfarmer@vatman.local',
    installer: 'installer@vatman.local',
    milkQuality: 'milkquality@vatman.local',
    westlands: 'westlands@vatman.local',
    admin: 'admin@vatman.local',
  } as const;
  for (const [who, email] of Object.entries(emails)) token[who as keyof typeof token] = await stack.signIn(email);
}, 180_000);
afterAll(async () => stack?.stop());

const call = (type: keyof typeof c, fields: Record<string, string>, as: keyof typeof token) => stack.post(c[type].path, { type, ...fields }, token[as]);
const data = async (type: 'MILK_QUALITY_DATA' | 'WESTLANDS_DATA', fields: Record<string, string>, as: keyof typeof token) => {
  const res = await call(type, fields, as);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return milkDataSchema.parse(res.body);
};

describe('Milk Quality staff (MILK_QUALITY_DATA)', () => {
  it("reads a dairy-company farm's vat by its 5-digit number (FON prefix): the §3 groups over the farm's local days", async () => {
    const body = await data('MILK_QUALITY_DATA', { supplyNumber: ' 50412 ', vatNumber: '2', ...range }, 'milkQuality');
    expect(body.farm).toMatchObject({ _id: 'farm-auto', fonterra_id: 'FON50412', supplier: 'FON', timezone: ZONE });
    expect(body.device).toMatchObject({ _id: AUTO_2, vat_number: 2 });
    expect(body.range).toMatchObject({ startDate: range.fromDate, endDate: range.toDate });
    expect(body.points).toBe(COUNT - (GAP_STEPS - 1));
    expect(body.detailData).toHaveLength(body.points);
    const first = body.detailData[0];
    expect(first).toMatchObject({ published_at: new Date(FROM).toISOString(), milk_volume: 1000, temp1: 4, agitator_status: 0, state_machine: 'milking', quality: { currentEstCFU: 4, pickupEstCFU: 4.5 } });
    // The outage of 40 minutes, the hour off mains, the agitator stops and the state runs.
    expect(body.outageData).toEqual([{ start: { published_at: new Date(FROM + GAP_AT * STEP).toISOString() }, end: { published_at: new Date(FROM + (GAP_AT + GAP_STEPS) * STEP).toISOString() } }]);
    expect(body.batteryData.map((b) => b.raw.status)).toEqual(['0x0B', '0x0A', '0x0B']);
    expect(body.agitatorData.listStop.length).toBeGreaterThan(100);
    expect(body.phyStateData.slice(0, 2).map((p) => p.phystate)).toEqual(['milking', 'storage']);
    // The newest activity of each kind in the range, with its start and end.
    expect(body.lastMilking?.activity.start.published_at).toBe(new Date(now - 6 * HOUR).toISOString());
    expect(body.lastMilking?.activity.end?.published_at).toBe(new Date(now - 4 * HOUR).toISOString());
    expect(body.lastCollection?.kind).toBe('collection');
    expect(body.lastCIP?.activity.end?.published_at).toBe(new Date(now - 18 * HOUR).toISOString());
    expect(body.lastStorage?.activity.end).toBeNull();
  });

  it('finds a dairy-company farm stored under its bare 5 digits, and a FON number typed in full', async () => {
    expect((await data('MILK_QUALITY_DATA', { supplyNumber: '31245', vatNumber: '1', ...range }, 'milkQuality')).farm._id).toBe('farm-pro');
    expect((await data('MILK_QUALITY_DATA', { supplyNumber: 'fon50412', vatNumber: '1', ...range }, 'milkQuality')).farm._id).toBe('farm-auto');
  });

  it("refuses another supplier's farm and an unknown number alike (403), a vat the farm does not have and missing fields (422)", async () => {
    for (const n of ['OCD40721', 'WES118', 'FON99999']) {
      const res = await call('MILK_QUALITY_DATA', { supplyNumber: n, vatNumber: '1', ...range }, 'milkQuality');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: `${n} is not a dairy-company supply number.` });
    }
    const vat = await call('MILK_QUALITY_DATA', { supplyNumber: '31245', vatNumber: '3', ...range }, 'milkQuality');
    expect([vat.status, vat.body]).toEqual([422, { message: 'Vat 3 is not a vat of 31245.' }]);
    const missing = await call('MILK_QUALITY_DATA', { supplyNumber: '', vatNumber: '', fromDate: range.fromDate, toDate: '' }, 'milkQuality');
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ message: ['supplyNumber is required', 'vatNumber is required', 'toDate is required'] });
    // The range's message names this action's fields.
    const reversed = await call('MILK_QUALITY_DATA', { supplyNumber: '31245', vatNumber: '1', fromDate: range.toDate, toDate: range.fromDate }, 'milkQuality');
    expect([reversed.status, reversed.body]).toEqual([422, { message: 'toDate must not be before fromDate.' }]);
  });
});

describe('Westlands staff (WESTLANDS_FARMS, WESTLANDS_DATA)', () => {
  it('lists the farms whose supplier is Westlands, whatever their number looks like', async () => {
    const res = await call('WESTLANDS_FARMS', {}, 'westlands');
    expect(res.body).toEqual([
      { _id: 'farm-wes', fonterra_id: 'WES118' },
      { _id: 'farm-westlands-2', fonterra_id: 'ZZ4411' },
    ]);
  });

  it("reads a Westlands farm's vat by its 3-character number (WES prefix)", async () => {
    const body = await data('WESTLANDS_DATA', { supplyNumber: '118', vatNumber: '1', ...range }, 'westlands');
    expect(body.farm).toMatchObject({ _id: 'farm-wes', fonterra_id: 'WES118', supplier: 'WES' });
    expect(body.device._id).toBe(WES_1);
    expect(body.points).toBe(COUNT - (GAP_STEPS - 1));
  });

  it('refuses a farm of another supplier with a clear message (403), the WES lookalike included', async () => {
    for (const n of ['FON50412', '31245', 'WES999']) {
      const res = await call('WESTLANDS_DATA', { supplyNumber: n, vatNumber: '1', ...range }, 'westlands');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: `${n} is not a Westlands supply number.` });
    }
  });
});

describe('who may call what', () => {
  const fields = {
    MILK_QUALITY_DATA: { supplyNumber: '50412', vatNumber: '2', ...range },
    WESTLANDS_FARMS: {},
    WESTLANDS_DATA: { supplyNumber: '118', vatNumber: '1', ...range },
    MILK_DATA_LOOKUPS: {},
  } as const;
  const types = Object.keys(fields) as (keyof typeof fields)[];

  it('farmers (their own farm too), a signed-in stranger and an installer get 403 on every type', async () => {
    for (const who of ['farmer', 'westFarmer', 'stranger', 'installer'] as const) {
      for (const type of types) expect([who, type, (await call(type, fields[type], who)).status]).toEqual([who, type, 403]);
    }
    // The Westlands farmer asking for their own farm's data is still no operator.
    expect((await call('WESTLANDS_DATA', { supplyNumber: 'WES118', vatNumber: '1', ...range }, 'westFarmer')).status).toBe(403);
  });

  it("no token is a 401; Milk Quality staff get nothing of the Westlands view's and Westlands staff nothing of Milk Quality's", async () => {
    for (const type of types) expect((await stack.post(c[type].path, { type, ...fields[type] })).status).toBe(401);
    expect((await call('WESTLANDS_FARMS', {}, 'milkQuality')).status).toBe(403);
    expect((await call('WESTLANDS_DATA', fields.WESTLANDS_DATA, 'milkQuality')).status).toBe(403);
    expect((await call('MILK_QUALITY_DATA', fields.MILK_QUALITY_DATA, 'westlands')).status).toBe(403);
    for (const who of ['milkQuality', 'westlands'] as const) expect((await call('MILK_DATA_LOOKUPS', {}, who)).status).toBe(403);
    // Nor any farmer action.
    expect((await stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: 'farm-auto' }, token.milkQuality)).status).toBe(403);
  });

  it('Admin reads both views, any supplier', async () => {
    expect((await data('MILK_QUALITY_DATA', fields.MILK_QUALITY_DATA, 'admin')).device._id).toBe(AUTO_2);
    expect((await data('WESTLANDS_DATA', fields.WESTLANDS_DATA, 'admin')).device._id).toBe(WES_1);
    expect((await data('MILK_QUALITY_DATA', { supplyNumber: 'OCD40721', vatNumber: '1', ...range }, 'admin')).farm._id).toBe('farm-lite');
  });
});

describe('the lookups log', () => {
  it('keeps who looked at which farm, newest first, for Admins only; refused lookups are not kept', async () => {
    const before = (await call('MILK_DATA_LOOKUPS', {}, 'admin')).body as unknown[];
    await data('WESTLANDS_DATA', { supplyNumber: 'WES118', vatNumber: '2', ...range }, 'westlands');
    expect((await call('WESTLANDS_DATA', { supplyNumber: 'OCD40721', vatNumber: '1', ...range }, 'westlands')).status).toBe(403);
    const res = await call('MILK_DATA_LOOKUPS', {}, 'admin');
    expect(res.status).toBe(200);
    const list = milkLookupSchema.array().parse(res.body);
    expect(list).toHaveLength(before.length + 1);
    expect(list[0]).toMatchObject({ view: 'westlands', farm_id: 'farm-wes', fonterra_id: 'WES118', vat_number: 2, ...range });
    expect(list[0]?.username).not.toBe('');
    expect(list[0]?.email).toBe('westlands@vatman.local');
    expect(list.map((l) => l.at)).toEqual([...list.map((l) => l.at)].sort().reverse());
    expect(list.some((l) => l.view === 'milkquality' && l.farm_id === 'farm-auto')).toBe(true);
  });
});
