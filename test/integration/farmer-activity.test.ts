import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository, StoredActivity } from '../../lambdas/ports/readings';
import {
  agitatorListResponseSchema,
  collectionListResponseSchema,
  lastAllResponseSchema,
  lastResponseSchema,
  milkingBriefResponseSchema,
  milkingHeadResponseSchema,
  milkingListResponseSchema,
  milkingOneResponseSchema,
  storageHistoryResponseSchema,
  storageOneResponseSchema,
} from '../../shared/api/actions/farmer-activity';
import { CHART_POINT_CAP } from '../../shared/constants';
import { activityId, pointOf, type ActivityKind } from '../../shared/telemetry/activities';
import { lastAllCursor, mergeLastAll } from '../../shared/telemetry/range-merge';
import { localDayOf } from '../../shared/time/local-day';
import { reading, writeSeries } from '../support/reading-series';
import { startTestStack } from '../support/local-stack';

/**
 * /api/farmer/activity through the local stack (gateway, JWT authorizer stand-in, handler,
 * dynalite). Readings and activities are written straight through the repository, as the ingest
 * would have written them.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let readings: ReadingsRepository;
let farmer: string;

const PATH = '/api/farmer/activity';
const MIN = 60_000;
const HOUR = 60 * MIN;
const now = Math.floor(Date.now() / MIN) * MIN;
/** Milkings 10 hours ago: their 4 h and 6 h deadlines have passed. */
const milkStart = now - 10 * HOUR;
const at = (m: number) => new Date(milkStart + m * MIN).toISOString();

/** Vat 1 of farm-pro cools well; vat 2 cools too slowly for 6 °C; farm-wes is another farmer's. */
const PRO_1 = 'dev-31245-1';
const PRO_2 = 'dev-31245-2';
const WES_1 = 'dev-wes118-1';
const AUTO_1 = 'dev-fon50412-1';

const good = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.1));
const slow = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.05));

const ids: Record<string, string> = {};

const putActivity = async (deviceId: string, farmId: string, kind: ActivityKind, startMin: number, endMin: number | null, temp: (m: number) => number) => {
  const point = (m: number) => pointOf(reading(at(m), { temp1: temp(m), milk_volume: m <= 0 ? 0 : Math.min(120, m) * 50 }));
  const a: StoredActivity = { kind, device_id: deviceId, farm_id: farmId, start: point(startMin), end: endMin === null ? null : point(endMin) };
  await readings.putActivity(a, 1);
  return activityId(deviceId, a);
};

const scriptMilking = async (deviceId: string, farmId: string, temp: (m: number) => number) => {
  await writeSeries(readings, deviceId, milkStart, 10 * 60, (t, m) =>
    reading(new Date(t).toISOString(), { temp1: temp(m), milk_volume: Math.min(120, m) * 50, state_machine: m < 120 ? 'milking' : 'storage', agitator_status: m % 30 < 5 ? 1 : 0 }),
  );
  return {
    milking: await putActivity(deviceId, farmId, 'milking', 0, 120, temp),
    storage: await putActivity(deviceId, farmId, 'storage', 0, null, temp),
    agitator: await putActivity(deviceId, farmId, 'agitator_stop', 5, 30, temp),
    collection: await putActivity(deviceId, farmId, 'collection', -120, -100, temp),
  };
};

beforeAll(async () => {
  stack = await startTestStack();
  readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
  farmer = await stack.signIn('farmer@vatman.local');
  const [p1, p2, w1] = await Promise.all([
    scriptMilking(PRO_1, 'farm-pro', good),
    scriptMilking(PRO_2, 'farm-pro', slow),
    scriptMilking(WES_1, 'farm-wes', good),
    // 8 days a minute apart (11,520 readings): over the chart cap in one range.
    writeSeries(readings, AUTO_1, now - 8 * 24 * HOUR, 8 * 24 * 60),
  ]);
  Object.assign(ids, { pro1: p1.milking, pro1Storage: p1.storage, pro2: p2.milking, wes: w1.milking, wesStorage: w1.storage });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (fields: Record<string, string>, token = farmer) => stack.post(PATH, fields, token);
const ok = async <S extends z.ZodType>(schema: S, fields: Record<string, string>) => {
  const res = await call(fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return schema.parse(res.body);
};

describe('every type answers for the farmer’s own farm', () => {
  it('FARMER_DASHBOARD_LAST: per vat the latest storage, collection, milking and CIP', async () => {
    const body = await ok(lastResponseSchema, { type: 'FARMER_DASHBOARD_LAST', farm: 'farm-pro' });
    expect(body.map((v) => v.device.vat_number)).toEqual([1, 2]);
    expect(body[0]?.lastMilking?._id).toBe(ids.pro1);
    expect(body[0]?.lastCollection?.kind).toBe('collection');
    expect(body[0]?.lastCIP).toBeNull();
    expect(body[0]?.last).toMatchObject({ published_at: at(599), temp1: 4 });
    // The controller status is the Vat-Man Auto tile's: a Pro farm's answer has none.
    expect(body[0]).not.toHaveProperty('controller');
  });

  it('FARMER_DASHBOARD_LAST_ALL: per vat in vat order, the groups of §3, for the default 2 days', async () => {
    const body = await ok(lastAllResponseSchema, { type: 'FARMER_DASHBOARD_LAST_ALL', farm: 'farm-pro', page_index: '1', startDate: '', endDate: '' });
    expect(body.map((v) => [v.device.vat_number, v.package])).toEqual([
      [1, 'Vat-Man Pro'],
      [2, 'Vat-Man Pro'],
    ]);
    const vat1 = body[0];
    expect(vat1?.points).toBe(600);
    expect(vat1?.detailData).toHaveLength(600);
    expect(vat1?.phyStateData.map((p) => p.phystate)).toEqual(['milking', 'storage']);
    expect(vat1?.agitatorData.listStop.length).toBeGreaterThan(10);
    expect(vat1?.batteryData).toEqual([{ published_at: at(0), raw: { status: '0x0B' } }]);
    expect(vat1?.range.page_index).toBe(1);
  });

  it('FARMER_DASHBOARD_LAST_ALL: a reading stored after the open day was compacted for reading shows at once', async () => {
    const fields = { type: 'FARMER_DASHBOARD_LAST_ALL', farm: 'farm-pro' };
    await ok(lastAllResponseSchema, fields);
    const fresh = new Date(now).toISOString();
    await readings.putReading(PRO_1, reading(fresh, { temp1: 3.3 }), '{}');
    const body = await ok(lastAllResponseSchema, fields);
    expect(body[0]?.detailData.at(-1)).toMatchObject({ published_at: fresh, temp1: 3.3 });
    expect(body[0]?.points).toBe(601);
  });

  it('FARMER_STORAGE_HISTORY', async () => {
    const body = await ok(storageHistoryResponseSchema, { type: 'FARMER_STORAGE_HISTORY', farm: 'farm-pro' });
    expect(body[0]?.storages.map((s) => s._id)).toEqual([ids.pro1Storage]);
    expect(body[0]?.detailData.length).toBe(601);
    // The milking start and end markers' state runs (farmer §4).
    expect(body[0]?.phyStateData.map((r) => r.phystate)).toEqual(['milking', 'storage']);
  });

  it('FARMER_MILKING_LIST: newest first with duration, productivity and speed', async () => {
    const body = await ok(milkingListResponseSchema, { type: 'FARMER_MILKING_LIST', farm: 'farm-pro' });
    expect(body.list.map((m) => m._id).sort()).toEqual([ids.pro1, ids.pro2].sort());
    expect(body.list[0]?.summary).toEqual({ duration_min: 120, productivity_l: 6000, speed_l_min: 50 });
  });

  it('FARMER_MILKING_ONE: cards, markers, chart and a compliance check that passes a good milking', async () => {
    const body = await ok(milkingOneResponseSchema, { type: 'FARMER_MILKING_ONE', activity_id: ids.pro1 as string });
    expect(body.startCard).toMatchObject({ published_at: at(0), vat: 4, volume: 0 });
    expect(body.stopCard).toMatchObject({ published_at: at(120), vat: 14 });
    expect(body.markers).toMatchObject({ h4: at(240), h6: at(360) });
    expect(body.detailData.at(-1)?.published_at).toBe(at(360));
    expect(body.compliance.map((r) => [r.rule, r.status, r.met_at])).toEqual([
      ['R1', 'passed', at(160)],
      ['R2', 'passed', at(200)],
      ['R3', 'pending', null],
      ['R4', 'pending', null],
    ]);
  });

  it('FARMER_MILKING_ONE: a milking that breaks the 6 °C rule shows it failed, with the time', async () => {
    const body = await ok(milkingOneResponseSchema, { type: 'FARMER_MILKING_ONE', activity_id: ids.pro2 as string });
    expect(body.compliance[0]).toMatchObject({ rule: 'R1', passed: true, met_at: at(200) });
    expect(body.compliance[1]).toMatchObject({ rule: 'R2', passed: false, failed_at: at(240) });
  });

  it('FARMER_MILKING_LIST_BRIEF and FARMER_MILKING_ONE_HEAD (stored, shown on the milking, validated)', async () => {
    const brief = await ok(milkingBriefResponseSchema, { type: 'FARMER_MILKING_LIST_BRIEF', activity_id: ids.pro1 as string });
    expect(brief.list.map((m) => m._id)).toEqual([ids.pro1]);
    const head = await ok(milkingHeadResponseSchema, { type: 'FARMER_MILKING_ONE_HEAD', activity_id: ids.pro1 as string, herd: JSON.stringify({ cows: 412, note: 'Two herds' }) });
    expect(head.herd).toEqual({ cows: 412, note: 'Two herds' });
    const one = await ok(milkingOneResponseSchema, { type: 'FARMER_MILKING_ONE', activity_id: ids.pro1 as string });
    expect(one.herd).toEqual({ cows: 412, note: 'Two herds' });
    const bad = await call({ type: 'FARMER_MILKING_ONE_HEAD', activity_id: ids.pro1 as string, herd: JSON.stringify({ cows: -3 }) });
    expect(bad).toEqual({ status: 422, body: { message: 'herd.cows must be 0 or more' } });
    expect((await call({ type: 'FARMER_MILKING_ONE_HEAD', activity_id: ids.pro1 as string, herd: '{' })).status).toBe(422);
  });

  it('FARMER_STORAGE_ONE: the storage, its vat, readings and agitator stops; no alert yet', async () => {
    const body = await ok(storageOneResponseSchema, { type: 'FARMER_STORAGE_ONE', activity_id: ids.pro1Storage as string, alert_id: '' });
    expect(body.activity._id).toBe(ids.pro1Storage);
    expect(body.farm_id).toBe('farm-pro');
    expect(body.device.vat_number).toBe(1);
    expect(body.detailData.length).toBe(601);
    expect(body.alert).toBeNull();
    // The state runs for the milking start and end markers (farmer §4), as the dashboard's range has them.
    expect(body.phyStateData.map((r) => r.phystate)).toEqual(['milking', 'storage']);
    expect(Date.parse(body.phyStateData[1]?.start ?? '')).toBe(Date.parse(at(120)));
    expect(body.coolerData).toEqual([]);
  });

  it('FARMER_STORAGE_ONE with alert_id: the farm’s alert, and none for another farm’s alert id', async () => {
    const alerts = dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable);
    const alert = (farm: string, deviceId: string, id: string) => ({
      _id: id,
      farm_id: farm,
      type: 102 as const,
      status: 1 as const,
      data: { published_at: at(300), temp1: 7.2, milk_volume: 6000, agitator_status: 1 as const },
      device: { _id: deviceId, name: deviceId, vat_number: 1 },
      created_at: at(300),
    });
    await alerts.raise(alert('farm-pro', PRO_1, `${at(300)}~pro`), false);
    await alerts.raise(alert('farm-wes', WES_1, `${at(300)}~wes`), false);
    const mine = await ok(storageOneResponseSchema, { type: 'FARMER_STORAGE_ONE', activity_id: ids.pro1Storage as string, alert_id: `${at(300)}~pro` });
    expect(mine.alert).toMatchObject({ _id: `${at(300)}~pro`, type: 102, data: { temp1: 7.2 } });
    const theirs = await ok(storageOneResponseSchema, { type: 'FARMER_STORAGE_ONE', activity_id: ids.pro1Storage as string, alert_id: `${at(300)}~wes` });
    expect(theirs.alert).toBeNull();
  });

  it('FARMER_COLLECTION_LIST and FARMER_AGITATOR_LIST', async () => {
    const collections = await ok(collectionListResponseSchema, { type: 'FARMER_COLLECTION_LIST', farm: 'farm-pro' });
    expect(collections.list).toHaveLength(2);
    expect(collections.list[0]).toMatchObject({ kind: 'collection', volume_collected: 0, duration_min: 20 });
    const stops = await ok(agitatorListResponseSchema, { type: 'FARMER_AGITATOR_LIST', farm: 'farm-pro' });
    expect(stops.list.map((s) => [s.vat_number, s.duration_min]).sort()).toEqual([
      [1, 25],
      [2, 25],
    ]);
  });
});

describe('another farm’s data is 403 through every type', () => {
  const farmTypes = ['FARMER_DASHBOARD_LAST', 'FARMER_DASHBOARD_LAST_ALL', 'FARMER_STORAGE_HISTORY', 'FARMER_MILKING_LIST', 'FARMER_COLLECTION_LIST', 'FARMER_AGITATOR_LIST'];
  it.each(farmTypes)('%s for farm-wes and for a farm that does not exist', async (type) => {
    expect(await call({ type, farm: 'farm-wes' })).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect((await call({ type, farm: 'farm-nowhere' })).status).toBe(403);
  });

  const activityTypes: [string, () => Record<string, string>][] = [
    ['FARMER_MILKING_ONE', () => ({ activity_id: ids.wes as string })],
    ['FARMER_MILKING_LIST_BRIEF', () => ({ activity_id: ids.wes as string })],
    ['FARMER_MILKING_ONE_HEAD', () => ({ activity_id: ids.wes as string, herd: '{"cows":1}' })],
    ['FARMER_STORAGE_ONE', () => ({ activity_id: ids.wesStorage as string })],
  ];
  it.each(activityTypes)('%s for an activity of farm-wes, an unknown one and one of another kind', async (type, fields) => {
    expect(await call({ type, ...fields() })).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect((await call({ type, activity_id: `${PRO_1}~milking~2020-01-01T00:00:00.000Z`, herd: '{}' })).status).toBe(403);
    expect((await call({ type, activity_id: `dev-nobody-1~milking~${at(0)}`, herd: '{}' })).status).toBe(403);
    expect((await call({ type, activity_id: type === 'FARMER_STORAGE_ONE' ? (ids.pro1 as string) : (ids.pro1Storage as string), herd: '{}' })).status).toBe(403);
  });

  it('writes no herd note on another farm’s milking', async () => {
    await call({ type: 'FARMER_MILKING_ONE_HEAD', activity_id: ids.wes as string, herd: '{"cows":1}' });
    expect(await readings.getHerdNote(WES_1, at(0))).toBeUndefined();
  });

  it('answers the other farmer for their own farm', async () => {
    const west = await stack.signIn('westfarmer@vatman.local');
    expect((await call({ type: 'FARMER_MILKING_ONE', activity_id: ids.wes as string }, west)).status).toBe(200);
    expect((await call({ type: 'FARMER_MILKING_ONE', activity_id: ids.pro1 as string }, west)).status).toBe(403);
  });

  it('needs a token', async () => {
    expect((await stack.post(PATH, { type: 'FARMER_DASHBOARD_LAST', farm: 'farm-pro' })).status).toBe(401);
  });
});

describe('range rules on the server', () => {
  const today = localDayOf(Date.now(), 'Pacific/Auckland');
  const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00.000Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const lastAll = (fields: Record<string, string>, farm = 'farm-auto') => call({ type: 'FARMER_DASHBOARD_LAST_ALL', farm, ...fields });

  it('refuses more than 30 days, a reversed range, one date alone and the future', async () => {
    expect(await lastAll({ startDate: day(-31), endDate: day(0) })).toEqual({ status: 422, body: { message: 'The range may be at most 30 days.' } });
    expect(await lastAll({ startDate: day(-1), endDate: day(-2) })).toEqual({ status: 422, body: { message: 'endDate must not be before startDate.' } });
    expect(await lastAll({ startDate: day(-1) })).toEqual({ status: 422, body: { message: 'Send startDate and endDate together.' } });
    expect(await lastAll({ startDate: day(-1), endDate: day(1) })).toEqual({ status: 422, body: { message: 'No more data!' } });
    expect(await lastAll({ page_index: '0' })).toEqual({ status: 422, body: { message: 'No more data!' } });
    expect(await lastAll({ startDate: '2026-02-30', endDate: day(0) })).toEqual({ status: 422, body: { message: 'startDate must be a date as YYYY-MM-DD' } });
  });

  it('gives the date range to Pro and Auto only; Lite pages by 2 days', async () => {
    expect(await lastAll({ startDate: day(-2), endDate: day(0) }, 'farm-lite')).toEqual({
      status: 422,
      body: { message: 'The date range is for Vat-Man Pro and Vat-Man Auto farms.' },
    });
    const page2 = lastAllResponseSchema.parse((await lastAll({ page_index: '2' }, 'farm-lite')).body);
    expect(Date.parse(page2[0]?.range.to as string) - Date.parse(page2[0]?.range.from as string)).toBe(2 * 86_400_000);
  });

  it('maps a 30-day range of local days to UTC and keeps every series at or under 10,000 points', async () => {
    const res = await lastAll({ startDate: day(-30), endDate: day(0) });
    expect(res.status).toBe(200);
    const vat1 = lastAllResponseSchema.parse(res.body)[0];
    expect(vat1?.range).toMatchObject({ startDate: day(-30), endDate: day(0) });
    // Local midnight in Auckland is 11:00 or 12:00 UTC the day before.
    expect(vat1?.range.from).toMatch(/T1[12]:00:00\.000Z$/);
    expect(vat1?.points).toBeGreaterThanOrEqual(11_000);
    expect(vat1?.detailData.length).toBeLessThanOrEqual(CHART_POINT_CAP);
    // Thinned by min-max time buckets: fewer points, the extremes and every agitator and state change kept.
    expect(vat1?.detailData.length).toBeLessThan(vat1?.points as number);
    expect(vat1?.detailData.filter((p) => (p.temp1 ?? 0) > 6.85).length).toBeGreaterThan(100);
    expect(vat1?.coolerData.length).toBeLessThanOrEqual(CHART_POINT_CAP);
    expect(vat1?.phyStateData.length).toBeGreaterThan(10);
  });
});

describe('FARMER_DASHBOARD_LAST_ALL since: the 120 s refresh fetches only what is new', () => {
  const fields = { type: 'FARMER_DASHBOARD_LAST_ALL', farm: 'farm-pro' };
  // The last 2 days move on with the clock: the two answers' ranges differ by the milliseconds between them.
  const withoutEnd = (answer: z.infer<typeof lastAllResponseSchema>) => answer.map(({ range, ...v }) => ({ ...v, range: { ...range, from: 'then', to: 'now' } }));

  it('answers only the readings after the cursor, and merged into the last answer they give what the whole range gives', async () => {
    const before = await ok(lastAllResponseSchema, fields);
    const since = lastAllCursor(before) as string;
    // Vat 2's last reading is a minute before `now` (vat 1 may have one at `now`, from the test above): the cursor is the earlier.
    expect(since).toBe(new Date(now - MIN).toISOString());
    // New readings a second apart after `now`: a stop that goes on across the cursor and ends, a state
    // change, a new stop left open, a battery going off (vat 1); vat 2 stays stopped, then runs.
    while (Date.now() < now + 10_000) await new Promise((r) => setTimeout(r, 250));
    const t = (k: number) => new Date(now + k * 1000).toISOString();
    const pro1 = [
      reading(t(1), { agitator_status: 0 }),
      reading(t(2), { agitator_status: 1, temp1: 3.9 }),
      reading(t(3), { agitator_status: 1, state_machine: 'eom' }),
      reading(t(4), { agitator_status: 0, state_machine: 'eom' }),
      reading(t(5), { agitator_status: 0, state_machine: 'eom', battery_status: '0x0A', on_mains: false }),
    ];
    const pro2 = [reading(t(1)), reading(t(2)), reading(t(3), { agitator_status: 1, temp1: 7.5 })];
    for (const r of pro1) await readings.putReading(PRO_1, r, '{}');
    for (const r of pro2) await readings.putReading(PRO_2, r, '{}');

    const fresh = await ok(lastAllResponseSchema, { ...fields, since });
    // Only what is new: vat 1's readings after the cursor it already had and the five new ones; vat 2's three.
    expect(fresh.map((v) => v.since)).toEqual([since, since]);
    const already = (before[0]?.detailData ?? []).filter((p) => p.published_at > since).map((p) => p.published_at);
    expect(fresh.map((v) => v.detailData.map((p) => p.published_at))).toEqual([[...already, ...pro1.map((r) => r.published_at)], pro2.map((r) => r.published_at)]);
    expect(fresh.map((v) => v.points)).toEqual([already.length + 5, 3]);
    expect(JSON.stringify(fresh).length).toBeLessThan(JSON.stringify(before).length / 20);

    const whole = await ok(lastAllResponseSchema, fields);
    const merged = mergeLastAll(before, fresh);
    expect(merged).toBeDefined();
    expect(withoutEnd(merged ?? [])).toEqual(withoutEnd(whole));
    // The joins were exercised: vat 1's stop across the cursor ended at t(2), a new one is open; vat 2's ended at t(3).
    expect(whole[0]?.agitatorData.listStop.slice(-2).map((p) => p.end?.published_at ?? null)).toEqual([t(2), null]);
    expect(whole[0]?.phyStateData.at(-1)).toEqual({ start: t(3), end: t(5), phystate: 'eom' });
    expect(whole[0]?.batteryData.at(-1)).toEqual({ published_at: t(5), raw: { status: '0x0A' } });
    expect(whole[1]?.agitatorData.listStop.at(-1)?.end?.published_at).toBe(t(3));
  });

  it('asks for the whole range again when the vats changed, and refuses a cursor that is not a time', async () => {
    const before = await ok(lastAllResponseSchema, fields);
    expect(mergeLastAll(before.slice(0, 1), before)).toBeUndefined();
    expect(await call({ ...fields, since: 'yesterday' })).toEqual({ status: 422, body: { message: 'since must be a date and time' } });
    // A cursor before the range is the whole range.
    const all = await ok(lastAllResponseSchema, { ...fields, since: '2000-01-01T00:00:00Z' });
    expect(all[0]?.since).toBeUndefined();
    expect(all[0]?.points).toBe(before[0]?.points);
  });
});
