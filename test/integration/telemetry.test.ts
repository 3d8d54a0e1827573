import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dayOf } from '../../shared/time/utc';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { knodeTopic, telemetryTopic } from '../../shared/telemetry/device-message';
import { startTestStack } from '../support/local-stack';
import { shuffled, storedState, trace } from '../support/telemetry';
import { until as waitUntil } from '../support/until';

/**
 * Telemetry through the local stack: a real MQTT client publishes to the aedes broker, the rule
 * runner hands each message to the ingest handler, which writes to dynalite with the real SDK.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let client: MqttClient;
let farms: FarmRepository;
let readings: ReadingsRepository;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'telemetry-test' });
  const doc = createDocumentClient();
  farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  token = await stack.signIn('farmer@vatman.local');
});
afterAll(async () => {
  await client?.endAsync();
  await stack?.stop();
});

const publish = (topic: string, payload: string | object) =>
  client.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 15_000) => waitUntil(probe, { timeoutMs, everyMs: 25 });

const minutesAgo = (m: number, base = Date.now()) => new Date(Math.floor(base / 60_000) * 60_000 - m * 60_000).toISOString();

describe('a device message published over MQTT', () => {
  it("appears in the API's view of the vat within 2 seconds", async () => {
    const publishedAt = minutesAgo(1);
    const sent = Date.now();
    await publish(telemetryTopic('vm-31245-1'), {
      published_at: publishedAt,
      radar_distance: 1438,
      temp1: 4.27,
      temp2: 12.1,
      agitator_status: 1,
      state_machine: 'storage',
      battery: { status: '0x0B' },
    });
    const vat = await until(async () => {
      const res = await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, token);
      const vats = (res.body as { vats: { vat_number: number; last_updated: { published_at: string; milk_level: number; milk_volume: number; temp1: number } | null }[] }).vats;
      const v = vats.find((x) => x.vat_number === 1);
      return v?.last_updated?.published_at === publishedAt ? v : undefined;
    }, 2_000);
    expect(Date.now() - sent).toBeLessThan(2_000);
    // Vat 1 of 31245: height 2438, diameter 2875, wedge 60: level 1000 mm → (940 × π × 2875² / 4e6) ≈ 6102 L → 6100 shown.
    expect(vat.last_updated).toMatchObject({ milk_level: 1000, milk_volume: 6100, temp1: 4.3 });
  });

  it('updates a knode asset from its gateway', async () => {
    const publishedAt = minutesAgo(2);
    await publish(knodeTopic('kn-31245'), { published_at: publishedAt, type: 'Tank', asset_name: 'House tank', metric_value_1: 42, unit_1: '%' });
    const asset = await until(async () => (await farms.listKnodeAssets('farm-pro')).find((a) => a.asset_name === 'House tank' && a.published_at === publishedAt));
    expect(asset.metric_value_1).toBe(42);
  });
});

describe('bad messages', () => {
  const rejectedReasons = async (day: string) => (await readings.listRejected(day)).map((r) => `${r.topic} ${r.reason}`);

  it('keeps malformed JSON, wrong types, unknown devices and absurd values in the rejected store with a reason', async () => {
    const t = minutesAgo(3);
    const topic = telemetryTopic('vm-ocd40721-1');
    await publish(topic, '{"published_at": "2026-');
    await publish(topic, { published_at: t, temp1: 'warm' });
    await publish(telemetryTopic('vm-nobody-9'), { published_at: t, temp1: 4 });
    await publish(topic, { published_at: t, temp1: 500 });
    await publish(topic, { published_at: new Date(Date.now() + 3_600_000).toISOString(), temp1: 4 });
    await publish(topic, { published_at: t, agitator_status: 7 });
    await publish('dts/vm-ocd40721-1/other', { published_at: t });
    // The Lite vat is 2,438 mm high: a level of 5,000 mm is no reading of that vat.
    await publish(topic, { published_at: t, milk_level: 5000 });
    const today = dayOf(new Date().toISOString());
    const reasons = await until(async () => {
      const all = await rejectedReasons(today);
      return all.length >= 8 ? all : undefined;
    });
    expect(reasons).toEqual(
      expect.arrayContaining([
        `${topic} payload is not valid JSON`,
        expect.stringMatching(/^dts\/vm-ocd40721-1\/telemetry temp1: /),
        'dts/vm-nobody-9/telemetry unknown device vm-nobody-9',
        expect.stringMatching(/temp1: Too big/),
        expect.stringMatching(/is in the future$/),
        expect.stringMatching(/agitator_status: /),
        `${topic} milk_level 5000 mm is above the vat's height of 2438 mm`,
      ]),
    );
    // Nothing of them was stored, and the stack still takes good messages.
    expect(await readings.readPartitions('dev-ocd40721-1', t, t)).toEqual([]);
    await publish(topic, { published_at: t, temp1: 3.9 });
    await until(async () => ((await readings.readPartitions('dev-ocd40721-1', t, t)).length === 1 ? true : undefined));
  });
});

describe('idempotent and order-independent ingest', () => {
  it('ends in the same stored state whether each message is published once in order or three times shuffled', async () => {
    // Two identical vats of the Auto farm (21,500 L, 2875 mm, 3500 mm high): one gets the trace once
    // in order, the other three copies of it shuffled. The trace crosses a UTC midnight.
    const midnight = Date.parse(`${dayOf(new Date(Date.now() - 2 * 86_400_000).toISOString())}T00:00:00.000Z`);
    const messages = trace(midnight - 95 * 60_000, 200);
    const from = messages[0]!.published_at;
    const to = messages.at(-1)!.published_at;
    for (const m of messages) await publish(telemetryTopic('vm-fon50412-1'), m);
    for (const m of shuffled([...messages, ...messages, ...messages], 7)) await publish(telemetryTopic('vm-fon50412-2'), m);

    // Settled: each device's state has counted every reading, and the stream has nothing left
    // (the copies after that answer 'duplicate'; the batch that counted the last flushed its outbox).
    const settled = (deviceId: string) => until(async () => ((await farms.getDeviceForIngest(deviceId))?.ingest?.n === messages.length ? true : undefined), 60_000);
    await settled('dev-fon50412-1');
    await settled('dev-fon50412-2');
    await stack.ingestDrained();

    const once = await storedState(farms, readings, 'dev-fon50412-1', from, to);
    const thrice = await storedState(farms, readings, 'dev-fon50412-2', from, to);
    expect(once.readings).toHaveLength(messages.length);
    expect(once.activities.map((a) => a.kind)).toEqual(expect.arrayContaining(['milking', 'agitator_stop', 'outage', 'battery_off', 'cip', 'collection']));
    // The day before the last reading was compacted into its bucket; the range reads it back whole.
    expect(once.range).toEqual(once.readings);
    expect(thrice).toEqual(once);
  });
});
