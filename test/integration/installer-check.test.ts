import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoInstallRepository, type InstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import { installerContracts as c, NO_SUCH_FARM, type CheckDiagnosticsAnswer, type CheckOnlineAnswer } from '../../shared/api/actions/installer';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { startTestStack } from '../support/local-stack';
import { until } from '../support/until';

/** Check Install through the local stack (operator §2, §4, §7, §8; issue 20): answered from what the vats last reported. */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let installs: InstallRepository;
let installer: string;
let admin: string;
let farmer: string;
let mq: MqttClient;

const call = async (type: 'CHECK_ONLINE' | 'CHECK_DIAGNOSTICS' | 'CHECK_SENSORBOARDS', supplyNumber: string, token = installer) => stack.post(c[type].path, { type, supplyNumber }, token);
const ok = async <T,>(type: 'CHECK_ONLINE' | 'CHECK_DIAGNOSTICS' | 'CHECK_SENSORBOARDS', supplyNumber: string, token = installer) => {
  const res = await call(type, supplyNumber, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};

beforeAll(async () => {
  stack = await startTestStack();
  installs = dynamoInstallRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  [installer, admin, farmer] = await Promise.all([stack.signIn('installer@vatman.local'), stack.signIn('admin@vatman.local'), stack.signIn('farmer@vatman.local')]);
  mq = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'installer-check-test' });
}, 180_000);
afterAll(async () => {
  await mq?.endAsync();
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

  it('is online once a vat reports, with its signal and power, sensor boards ok, and logs each check', async () => {
    const at = new Date().toISOString();
    for (const n of [1, 2]) {
      await mq.publishAsync(
        telemetryTopic(`vm-31245-${n}`),
        JSON.stringify({ published_at: at, radar_distance: 1500, temp1: 4.2, battery: { status: '0x0B' }, signal: { strength: 67, quality: 81, disconnects: 2 } }),
        { qos: 1 },
      );
    }
    // The first space is removed and the number upper-cased (§5).
    const online = await until(async () => {
      const a = await ok<CheckOnlineAnswer>('CHECK_ONLINE', ' 312 45');
      return typeof a === 'object' && a.online && a.lastSeen === at ? a : undefined;
    }, { timeoutMs: 15_000 });
    expect(online).toEqual({ online: true, lastSeen: at });
    await until(async () => {
      const a = await ok<CheckDiagnosticsAnswer>('CHECK_DIAGNOSTICS', '31245', admin);
      return typeof a === 'object' && a.data.device.published_at === at ? a : undefined;
    }, { timeoutMs: 15_000 });
    const diag = await ok<CheckDiagnosticsAnswer>('CHECK_DIAGNOSTICS', '31245');
    expect(diag).toEqual({
      data: { device: { network: { signal: { strength: 67, quality: 81 }, disconnects: 2 }, power: { source: 'VIN', battery: { state: 'charging' } }, published_at: at } },
    });
    expect(await ok('CHECK_SENSORBOARDS', '31245')).toEqual({ result: 'ok: 2 vats' });

    const log = await installs.listEntries({ supplyNumber: '31245', logType: 'All', page: 0, pageSize: 50 });
    const types = log.installs.map((e) => e.type);
    expect(types).toContain('Check Online');
    expect(types).toContain('Check Sensor Boards');
    const d = log.installs.find((e) => e.type === 'Check Diagnostics' && e.installer_name !== '');
    expect(d).toMatchObject({ supply_number: '31245', imei: '352656100000029', particle_id: 'unit-352656100000029', signalStrength: 67, signalQuality: 81, disconnects: 2, power: 'VIN', batteryState: 'charging' });
    expect(log.installs.find((e) => e.type === 'Check Online' && e.result === 'Connection is up')).toBeDefined();
  }, 60_000);

  it("reports a fault when a vat's newest reading lacks its probe", async () => {
    await mq.publishAsync(telemetryTopic('vm-31245-2'), JSON.stringify({ published_at: new Date().toISOString(), radar_distance: 1500 }), { qos: 1 });
    const a = await until(async () => {
      const r = await ok<{ result: string }>('CHECK_SENSORBOARDS', '31245');
      return r.result.startsWith('fault') ? r : undefined;
    }, { timeoutMs: 15_000 });
    expect(a.result).toBe('fault: vat 2 temperature probe missing');
  }, 30_000);
});
