import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoInstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import type { InstallRepository } from '../../lambdas/ports/installs';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { installerContracts as c, NO_SUCH_FARM, type CheckDiagnosticsAnswer, type CheckOnlineAnswer } from '../../shared/api/actions/installer';
import { unitThingName } from '../../shared/entities/install';
import { UNIT_CHECK_TIMEOUT_MS } from '../../shared/installer/unit-check';
import { telemetryTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import { DEMO_DEVICES, DEMO_FARMS, DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { WEAK_SIGNAL } from '../../local/simulator/faults';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from '../../local/simulator/simulator';
import { startTestStack } from '../support/local-stack';
import { until } from '../support/until';

/**
 * Check Install through the local stack (operator §2, §4, §7, §8, §9): a command/reply
 * exchange with the farm's unit over MQTT, answered by the simulator as the demo farm's unit, whose
 * faults make each line fail. Also the unit's telemetry topic dts/<unit>/<vat>/telemetry through
 * the ingest, beside the deprecated per-vat topic.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let installs: InstallRepository;
let readings: ReadingsRepository;
let installer: string;
let admin: string;
let farmer: string;
let sim: SimulatorHandle;
let mq: MqttClient;

const UNIT = unitThingName(DEMO_UNIT_IMEIS['farm-pro'] as string);
type Check = 'CHECK_ONLINE' | 'CHECK_DIAGNOSTICS' | 'CHECK_SENSORBOARDS';
const call = async (type: Check, supplyNumber: string, token = installer) => stack.post(c[type].path, { type, supplyNumber }, token);
const ok = async <T,>(type: Check, supplyNumber: string, token = installer) => {
  const res = await call(type, supplyNumber, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const diagnostics = async () => {
  const a = await ok<CheckDiagnosticsAnswer>('CHECK_DIAGNOSTICS', '31245');
  if (typeof a !== 'object') throw new Error(String(a));
  return a.data.device;
};

beforeAll(async () => {
  stack = await startTestStack();
  const doc = createDocumentClient();
  installs = dynamoInstallRepository(doc, stack.facts.dynamodb.farmsTable);
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  [installer, admin, farmer] = await Promise.all([stack.signIn('installer@vatman.local'), stack.signIn('admin@vatman.local'), stack.signIn('farmer@vatman.local')]);
  // The demo farm 31245 (two vats) and its unit, as the local stack's simulator runs it.
  sim = await startSimulator({
    mqttUrl: stack.facts.mqtt,
    farms: simFarmsFrom(DEMO_FARMS.filter((f) => f._id === 'farm-pro'), DEMO_DEVICES, {}, DEMO_UNIT_IMEIS),
    backfillHours: 0.2,
    seed: 20,
  });
  await sim.caughtUp;
  mq = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'installer-check-test' });
}, 180_000);
afterAll(async () => {
  await mq?.endAsync();
  await sim?.stop();
  await stack?.stop();
});

describe('Check Install', () => {
  it("answers 'No such farm' for an unknown supply number and refuses a blank one", async () => {
    expect(await ok('CHECK_ONLINE', 'NOPE999')).toBe(NO_SUCH_FARM);
    expect(await ok('CHECK_DIAGNOSTICS', 'NOPE999')).toBe(NO_SUCH_FARM);
    expect(await ok('CHECK_SENSORBOARDS', 'NOPE999')).toBe(NO_SUCH_FARM);
    const blank = await call('CHECK_ONLINE', '  ');
    expect(blank.status).toBe(422);
    expect(JSON.stringify(blank.body)).toContain('Required Field');
  });

  it('refuses a farmer', async () => {
    expect((await call('CHECK_ONLINE', '31245', farmer)).status).toBe(403);
  });

  it("asks the unit: online, its signal, power and battery, both sensor boards, and logs each check with the unit's answer", async () => {
    // The first space is removed and the number upper-cased (§5). lastSeen is the vats' newest reading, which came on the unit's topic.
    const online = await until(async () => {
      const a = await ok<CheckOnlineAnswer>('CHECK_ONLINE', ' 312 45');
      return typeof a === 'object' && a.online && a.lastSeen !== null ? a : undefined;
    }, { timeoutMs: 20_000 });
    expect(Date.now() - Date.parse(online.lastSeen as string)).toBeLessThan(10 * 60_000);
    const d = await diagnostics();
    expect(d.power).toEqual({ source: 'VIN', battery: { state: 'charging' } });
    expect(d.network.signal.strength).toBeGreaterThan(20);
    expect(d.network.signal.quality).toBeGreaterThan(55);
    expect(d.network.disconnects).toBeGreaterThanOrEqual(0);
    expect(await ok('CHECK_SENSORBOARDS', '31245', admin)).toEqual({ result: 'ok: 2 vats' });

    const log = await installs.listEntries({ supplyNumber: '31245', logType: 'All', page: 0, pageSize: 50 });
    expect(log.installs.find((e) => e.type === 'Check Online')).toMatchObject({ result: 'Connection is up', network: 'LTE', particle_id: UNIT });
    expect(log.installs.find((e) => e.type === 'Check Diagnostics')).toMatchObject({
      supply_number: '31245',
      imei: DEMO_UNIT_IMEIS['farm-pro'],
      network: 'LTE',
      signalStrength: d.network.signal.strength,
      signalQuality: d.network.signal.quality,
      disconnects: d.network.disconnects,
      power: 'VIN',
      batteryState: 'charging',
    });
    expect(log.installs.find((e) => e.type === 'Check Sensor Boards')).toMatchObject({ result: 'ok: 2 vats', checkSensorBoards: 'ok: 2 vats' });
  }, 60_000);

  it("shows the unit's faults: weak signal, battery power, a missing sensor board", async () => {
    sim.inject({ device: 'vm-31245-1', kind: 'weak_signal', minutes: 10 });
    expect((await diagnostics()).network.signal).toEqual(WEAK_SIGNAL);
    sim.inject({ device: 'vm-31245-2', kind: 'power_cut', minutes: 10 });
    expect((await diagnostics()).power).toEqual({ source: 'BATTERY', battery: { state: 'discharging' } });
    sim.inject({ device: 'vm-31245-2', kind: 'sensor_board', minutes: 10 });
    expect(await ok('CHECK_SENSORBOARDS', '31245')).toEqual({ result: 'fault: vat 2 sensor board missing' });
    const log = await installs.listEntries({ supplyNumber: '31245', logType: 'Device Diagnostics', page: 0, pageSize: 50 });
    expect(log.installs.find((e) => e.type === 'Check Diagnostics')).toMatchObject({ power: 'BATTERY', batteryState: 'discharging' });
  }, 60_000);

  it("is 'Connection is down' when the unit does not answer in time, and the other checks say so", async () => {
    sim.inject({ device: UNIT, kind: 'offline', minutes: 10 });
    const started = Date.now();
    const a = await ok<CheckOnlineAnswer>('CHECK_ONLINE', '31245');
    expect(Date.now() - started).toBeGreaterThanOrEqual(UNIT_CHECK_TIMEOUT_MS);
    expect(a).toMatchObject({ online: false });
    expect(await diagnostics()).toEqual({ network: { signal: { strength: null, quality: null }, disconnects: null }, power: { source: null, battery: { state: 'unknown' } }, published_at: null });
    expect(await ok('CHECK_SENSORBOARDS', '31245')).toEqual({ result: `fault: no answer from the unit within ${UNIT_CHECK_TIMEOUT_MS / 1000} s` });
    const log = await installs.listEntries({ supplyNumber: '31245', logType: 'Install Checks', page: 0, pageSize: 50 });
    expect(log.installs[0]).toMatchObject({ type: 'Check Online', result: `Connection is down (no answer from the unit within ${UNIT_CHECK_TIMEOUT_MS / 1000} s)`, network: 'down' });
  }, 60_000);
});

describe("a unit's telemetry topic (dts/<unit>/<vat>/telemetry) and the deprecated per-vat topic", () => {
  const today = () => new Date().toISOString().slice(0, 10);
  const reading = (at: string) => JSON.stringify({ published_at: at, radar_distance: 1500, temp1: 4.2, battery: { status: '0x0B' } });

  it("stores a unit's vat reading as that vat device's, and still takes the per-vat topic", async () => {
    const t1 = new Date(Date.now() - 90_000).toISOString();
    const t2 = new Date(Date.now() - 30_000).toISOString();
    // The simulator's vats are offline now: these two are the newest readings.
    await mq.publishAsync(unitTelemetryTopic(UNIT, 2), reading(t1), { qos: 1 });
    await mq.publishAsync(telemetryTopic('vm-31245-1'), reading(t2), { qos: 1 });
    await until(async () => ((await readings.getRaw('dev-31245-2', t1)) ? true : undefined), { timeoutMs: 15_000 });
    await until(async () => ((await readings.getRaw('dev-31245-1', t2)) ? true : undefined), { timeoutMs: 15_000 });
    expect(await readings.getRaw('dev-31245-1', t1)).toBeUndefined();
  }, 40_000);

  it("rejects a vat the unit's farm does not have, and a unit nobody installed", async () => {
    const at = new Date(Date.now() - 20_000).toISOString();
    await mq.publishAsync(unitTelemetryTopic(UNIT, 3), reading(at), { qos: 1 });
    await mq.publishAsync(unitTelemetryTopic('unit-352656199999999', 1), reading(at), { qos: 1 });
    const reasons = await until(async () => {
      const r = (await readings.listRejected(today())).map((x) => `${x.topic} ${x.reason}`);
      return r.length >= 2 ? r : undefined;
    }, { timeoutMs: 15_000 });
    expect(reasons).toContain(`dts/${UNIT}/3/telemetry unknown device ${UNIT}/3`);
    expect(reasons).toContain('dts/unit-352656199999999/1/telemetry unknown device unit-352656199999999/1');
  }, 40_000);
});
