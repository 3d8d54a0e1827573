import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoWatchmanRepository, WATCHMAN_HISTORY_DAYS } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { createLogger } from '../../lambdas/lib/logger';
import { makeWatchman, type WatchmanDeps } from '../../lambdas/watchman/job';
import { dynamoWatchmanDigestRepository } from '../../lambdas/adapters/dynamodb/watchman-digest-repository';
import { cachedVatWindow } from '../../lambdas/watchman/vat-window';
import { createVatModel } from '../../local/simulator/vat-model';
import { operatorContracts } from '../../shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import type { Device } from '../../shared/entities/device';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { WatchmanCase, WatchmanRun } from '../../shared/watchman/records';
import { startTestStack } from '../support/local-stack';

/**
 * End to end. The simulator's vat model plays nine days of the Pro farm
 * (31245, two vats, a dairy-company farm with its sync on) and the messages go over MQTT through
 * the ingest. Vat 1 goes offline for 3 hours, then its plate runs warm for a day, then its
 * agitator stops through a milking; vat 2's radar drifts (the simulator's radar_drift, 1 mm an
 * hour) for its first four days and is then set right (recalibrated). The tanker's true litres become the company's dockets.
 * Watchman runs every 3 hours on its own clock through the week.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DAYS = 9;
const D0 = Math.floor((Date.now() - DAYS * DAY) / HOUR) * HOUR;
const OFFLINE = { from: D0 + DAY + 10 * HOUR, minutes: 180 };
const WARM_PLATE = { from: D0 + DAY + 16 * HOUR, minutes: 24 * 60 };
// 01:00 UTC is 14:00 on the farm's (NZ) clock: the afternoon milking (about 15:30) falls inside.
const AGITATOR = { from: Math.floor((D0 + 2 * DAY) / DAY) * DAY + DAY + HOUR, minutes: 6 * 60 };
// The radar drifts 1 mm an hour from the start (96 mm by day 4), then is set right.
const DRIFT = { until: D0 + 4 * DAY };

let stack: Awaited<ReturnType<typeof startTestStack>>;
let deps: Omit<WatchmanDeps, 'now'>;
let clock = 0;
const runs: WatchmanRun[] = [];
const opened: (WatchmanCase & { run: number })[] = [];
const closed: (WatchmanCase & { run: number })[] = [];
const syncAfterRun: boolean[] = [];

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
  const doc = createDocumentClient();
  const { farmsTable, readingsTable, alertsTable } = stack.facts.dynamodb;
  const farms = dynamoFarmRepository(doc, farmsTable);
  const readings = dynamoReadingsRepository(doc, readingsTable);
  const dairy = dynamoDairyRepository(doc, farmsTable);
  const watchman = dynamoWatchmanRepository(doc, farmsTable);
  const farm = await farms.getFarm('farm-pro');
  if (!farm) throw new Error('no farm-pro');
  await farms.putFarm({ ...farm, fonterra_api_status: true });
  const devices = (await farms.listDevicesOfFarm('farm-pro')).filter((d) => d.status === 1);
  expect(devices.map((d) => d.vat_number)).toEqual([1, 2]);

  const models = devices.map((d: Device) => {
    const m = createVatModel({ device: d.name, farmKey: farm.fonterra_id, timezone: farm.timezone, vat: d, seed: 22, quality: true });
    if (d.vat_number === 1) {
      m.inject('offline', OFFLINE.minutes, OFFLINE.from);
      m.inject('warm_plate', WARM_PLATE.minutes, WARM_PLATE.from);
      m.inject('agitator_stop', AGITATOR.minutes, AGITATOR.from);
    } else m.inject('radar_drift', (DRIFT.until - D0) / MIN, D0);
    return { device: d, model: m, collecting: false };
  });
  const mq = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'watchman-week' });
  const dockets: { vat: number; at: number; litres: number }[] = [];
  let batch: Promise<unknown>[] = [];
  const end = Math.floor(Date.now() / MIN) * MIN;
  for (let t = D0; t <= end; t += MIN) {
    for (const v of models) {
      const before = v.model.volume();
      const message = v.model.step(t);
      const after = v.model.volume();
      // The tanker's meter: the litres really in the vat when the pumping starts.
      if (!v.collecting && before - after > 300) {
        v.collecting = true;
        dockets.push({ vat: v.device.vat_number, at: t, litres: before });
      }
      if (after === 0) v.collecting = false;
      if (!message) continue;
      batch.push(mq.publishAsync(telemetryTopic(v.device.name), JSON.stringify(message), { qos: 1 }));
      if (batch.length >= 400) {
        await Promise.all(batch);
        batch = [];
      }
    }
  }
  await Promise.all(batch);
  await mq.endAsync();
  await stack.ingestDrained();
  for (const k of dockets) {
    // As the gateway writes a docket's time: UTC, to the second, with its Z.
    const at = `${new Date(k.at).toISOString().slice(0, 19)}Z`;
    await dairy.putDocket({ farm_id: 'farm-pro', DocketID: `D-${k.vat}-${at}`, VatID: k.vat, PickupDateTime: at, Volume: Math.round(k.litres), Temperature: 4 });
  }
  // Two matched collections judge a vat (the default 3 needs more than this week holds after the
  // recalibration); the simulator's agitators turn at 100-115 rpm, on the default maximum's edge.
  await watchman.putSettings({ ...WATCHMAN_DEFAULTS, minimum_matched_collections: 2, maximum_agitator_probe_fault_threshold: 90 });

  deps = { farms, readings, vatWindow: cachedVatWindow(readings, dynamoWatchmanDigestRepository(doc, readingsTable)), dairy, alerts: dynamoAlertsRepository(doc, alertsTable), watchman, log: createLogger({ test: 'watchman' }, 'error'), concurrency: 8 };
  const job = makeWatchman({ ...deps, now: () => new Date(clock) });
  for (clock = D0 + DAY; clock <= Date.now() + HOUR; clock += 3 * HOUR) {
    const outcome = await job.run();
    if (!outcome.ran) throw new Error(`watchman did not run: ${outcome.reason}`);
    runs.push(outcome.run);
    opened.push(...outcome.cases.opened.map((c) => ({ ...c, run: runs.length - 1 })));
    closed.push(...outcome.cases.closed.map((c) => ({ ...c, run: runs.length - 1 })));
    syncAfterRun.push((await farms.getFarm('farm-pro'))?.fonterra_api_status ?? false);
  }
}, 900_000);
afterAll(async () => stack?.stop());

const key = (c: { vat: number; check: string }) => `${c.vat}#${c.check}`;

describe('Watchman over a simulated week of the Pro farm', () => {
  // The warm plate (vat 1, a day) opens the plate-cooling case from the engine's 'Milk warm plate' alerts.
  it('opens exactly one case per simulated fault, and closes each once its check passes again', () => {
    expect(opened.map(key).sort()).toEqual(['1#agitator_probe', '1#data_gaps', '1#plate_cooling', '2#calibration']);
    expect(closed.map(key).sort()).toEqual(['1#agitator_probe', '1#data_gaps', '1#plate_cooling', '2#calibration']);
    const at = (list: typeof opened, k: string) => Date.parse((list.find((c) => key(c) === k) as WatchmanCase).opened_at);
    const closedAt = (k: string) => Date.parse((closed.find((c) => key(c) === k) as WatchmanCase).closed_at as string);
    // Each opens at the first run after its fault and closes once the fault has left the 3-day window.
    expect(at(opened, '1#data_gaps')).toBeGreaterThan(OFFLINE.from);
    expect(at(opened, '1#data_gaps')).toBeLessThanOrEqual(OFFLINE.from + OFFLINE.minutes * MIN + 4 * HOUR);
    expect(closedAt('1#data_gaps')).toBeGreaterThan(OFFLINE.from + 3 * DAY);
    expect(at(opened, '1#agitator_probe')).toBeGreaterThan(AGITATOR.from);
    expect(at(opened, '1#agitator_probe')).toBeLessThanOrEqual(AGITATOR.from + AGITATOR.minutes * MIN + 3 * HOUR);
    expect(closedAt('1#agitator_probe')).toBeGreaterThan(AGITATOR.from + 3 * DAY);
    expect(at(opened, '1#plate_cooling')).toBeGreaterThan(WARM_PLATE.from);
    expect(at(opened, '1#plate_cooling')).toBeLessThanOrEqual(WARM_PLATE.from + WARM_PLATE.minutes * MIN + 3 * HOUR);
    // It closes once its last 'Milk warm plate' alert (raised within the fault's day) has left the 3-day window.
    expect(closedAt('1#plate_cooling')).toBeGreaterThan(at(opened, '1#plate_cooling') + 3 * DAY - 3 * HOUR);
    expect(closedAt('1#plate_cooling')).toBeLessThanOrEqual(WARM_PLATE.from + WARM_PLATE.minutes * MIN + 3 * DAY + 3 * HOUR);
    expect(at(opened, '2#calibration')).toBeLessThan(DRIFT.until);
    expect(closedAt('2#calibration')).toBeGreaterThan(DRIFT.until);
    for (const c of opened) expect(c.evidence).not.toBe('');
  });

  it('turns the out-of-calibration farm’s sync off, and back on once it is recalibrated and healthy', () => {
    const offRun = runs.findIndex((r) => r.syncs_turned_off === 1);
    const onRun = runs.findIndex((r) => r.syncs_turned_on === 1);
    expect(offRun).toBeGreaterThanOrEqual(0);
    expect(onRun).toBeGreaterThan(offRun);
    expect(runs.filter((r) => r.syncs_turned_off > 0)).toHaveLength(1);
    expect(runs.filter((r) => r.syncs_turned_on > 0)).toHaveLength(1);
    expect(syncAfterRun[offRun]).toBe(false);
    expect(syncAfterRun[onRun]).toBe(true);
    expect(syncAfterRun.at(-1)).toBe(true);
    // Never on while a vat is out of spec; back on only after the calibration case closed.
    for (const [i, r] of runs.entries()) if (r.vats_out_of_spec > 0) expect(syncAfterRun[i]).toBe(false);
    expect(onRun).toBeGreaterThanOrEqual((closed.find((c) => c.check === 'calibration') as { run: number }).run);
  });

  it('counts in each run record what the run did; operator A34: GET_ACTIVITY answers the runs as a list', async () => {
    const watched = (await deps.farms.listFarms()).filter((f) => f.auto_check).length;
    for (const [i, r] of runs.entries()) {
      expect(r.outcome).toBe('done');
      expect(r.finished_at).not.toBeNull();
      expect(r.farms_total).toBe(watched);
      expect(r.farms_milking).toBe(1);
      expect(r.farms_dry).toBe(watched - 1);
      expect(r.farms_okay + r.farms_faulty).toBe(r.farms_milking);
      expect(r.syncs_on + r.syncs_off).toBe(1);
      expect(r.syncs_on).toBe(syncAfterRun[i] ? 1 : 0);
      expect(r.cases_created).toBe(opened.filter((c) => c.run === i).length);
      expect(r.cases_closed).toBe(closed.filter((c) => c.run === i).length);
      expect(r.vats_within_spec + r.vats_out_of_spec).toBeLessThanOrEqual(2);
      expect([r.error_fonterra_api, r.error_milog_api, r.error_particle_api]).toEqual([0, 0, 0]);
    }
    expect(runs.some((r) => r.vats_out_of_spec === 1)).toBe(true);
    expect(runs.at(-1)).toMatchObject({ vats_within_spec: 2, vats_out_of_spec: 0, farms_okay: 1, farms_faulty: 0 });
    expect(runs.some((r) => r.farms_faulty === 1)).toBe(true);

    // GET_ACTIVITY answers them newest first (a list, operator §7); GET_ACTIVITY_SUMMARY the total and the open cases (none now).
    const admin = await stack.signIn('admin@vatman.local');
    const res = await stack.post('/api/watchman', { type: 'GET_ACTIVITY' }, admin);
    expect(Array.isArray(res.body)).toBe(true);
    const activity = operatorContracts.GET_ACTIVITY.answer.parse(res.body);
    expect(activity[0]).toEqual(runs.at(-1));
    expect(activity.map((r) => r.started_at)).toEqual([...activity.map((r) => r.started_at)].sort().reverse());
    const summary = operatorContracts.GET_ACTIVITY_SUMMARY.answer.parse((await stack.post('/api/watchman', { type: 'GET_ACTIVITY_SUMMARY' }, admin)).body);
    expect(summary).toEqual({ count: runs.length, open_cases: [], settings_changes: [] });

    // Runs are history DynamoDB's TTL deletes after WATCHMAN_HISTORY_DAYS (never shown in the answer).
    const doc = createDocumentClient();
    const last = runs.at(-1) as WatchmanRun;
    const stored = await doc.send(new GetCommand({ TableName: stack.facts.dynamodb.farmsTable, Key: { pk: 'WATCHMAN#RUN', sk: `${last.started_at}#${last._id}` } }));
    expect(stored.Item?.expires_at).toBe(Math.floor(Date.parse(last.started_at) / 1000) + WATCHMAN_HISTORY_DAYS * 86_400);
  });

  it('counts a partner API failure on the run and carries on with the other farms', async () => {
    const job = makeWatchman({ ...deps, dairy: { listDockets: () => Promise.reject(new Error('gateway down')) }, now: () => new Date() });
    const outcome = await job.run();
    if (!outcome.ran) throw new Error('did not run');
    expect(outcome.run.error_fonterra_api).toBe(1);
    expect(outcome.run.farms_total).toBe(runs[0]?.farms_total);
    expect(outcome.run.outcome).toBe('done');
  });

  it('never overlaps itself, and on_status off stops runs', async () => {
    const job = makeWatchman({ ...deps, now: () => new Date() });
    const [a, b] = await Promise.all([job.run(), job.run()]);
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect([a, b].find((o) => !o.ran)).toEqual({ ran: false, reason: 'busy' });
    // The settings are the Watchman page's to write (SAVE_SETTINGS), not the job's.
    await dynamoWatchmanRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable).putSettings({ ...WATCHMAN_DEFAULTS, on_status: false });
    expect(await job.run()).toEqual({ ran: false, reason: 'off' });
  });
});
