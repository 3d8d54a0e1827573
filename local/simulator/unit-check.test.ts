import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitCheckTopic, unitStatusSchema, type UnitStatus } from '../../shared/installer/unit-check';
import { replyTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import { freePort } from '../../test/support/free-port';
import { startMqttBroker } from '../stand-ins/mqtt-broker';
import { WEAK_SIGNAL } from './faults';
import { startSimulator, type SimulatorHandle } from './simulator';

/** A simulated unit: its vats publish on dts/<unit>/<vat>/telemetry, and it answers Check Install. */
describe('simulated unit and Check Install', () => {
  const UNIT = 'unit-352656100000990';
  let broker: Awaited<ReturnType<typeof startMqttBroker>>;
  let sim: SimulatorHandle;
  let client: MqttClient;
  const seen = new Set<string>();
  const replies = new Map<string, unknown>();
  beforeAll(async () => {
    broker = await startMqttBroker(await freePort(), [], () => undefined);
    const vat = { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 };
    client = await connectAsync(broker.url, { clientId: 'unit-check-test' });
    client.on('message', (topic, payload) => {
      seen.add(topic);
      if (topic === replyTopic(UNIT)) {
        const r = JSON.parse(payload.toString()) as { request_id: string; return_value: unknown };
        replies.set(r.request_id, r.return_value);
      }
    });
    await client.subscribeAsync(['dts/#'], { qos: 1 });
    sim = await startSimulator({
      mqttUrl: broker.url,
      farms: [{ fonterra_id: 'SIMU1', timezone: 'Pacific/Auckland', unit: UNIT, vats: [{ device: 'vm-simu1-1', vatNumber: 1, vat }, { device: 'vm-simu1-2', vatNumber: 2, vat }], knode: [] }],
      backfillHours: 0.1,
      seed: 3,
    });
    await sim.caughtUp;
  });
  afterAll(async () => {
    await client?.endAsync();
    await sim?.stop();
    await broker?.close();
  });

  let n = 0;
  const ask = async (waitMs = 3_000): Promise<UnitStatus | undefined> => {
    const id = `r-${(n += 1)}`;
    await client.publishAsync(unitCheckTopic(UNIT), JSON.stringify({ request_id: id, check: 'diagnostics' }), { qos: 1 });
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      if (replies.has(id)) return unitStatusSchema.parse(replies.get(id));
      await new Promise((r) => setTimeout(r, 50));
    }
    return undefined;
  };

  it("publishes each vat's readings on the unit's topic, not the per-vat one", async () => {
    const until = Date.now() + 5_000;
    while (Date.now() < until && !(seen.has(unitTelemetryTopic(UNIT, 1)) && seen.has(unitTelemetryTopic(UNIT, 2)))) await new Promise((r) => setTimeout(r, 50));
    expect(seen.has(unitTelemetryTopic(UNIT, 1))).toBe(true);
    expect(seen.has(unitTelemetryTopic(UNIT, 2))).toBe(true);
    expect(seen.has('dts/vm-simu1-1/telemetry')).toBe(false);
  });

  it('answers with network, signal, disconnects, power on VIN, and both sensor boards', async () => {
    const s = await ask();
    expect(s).toMatchObject({ network: 'LTE', power: { source: 'VIN', battery: { state: 'charging' } }, sensorBoards: [{ vat: 1, probe: true, radar: true }, { vat: 2, probe: true, radar: true }] });
    expect(s?.signal.strength).toBeGreaterThan(20);
    expect(s?.signal.quality).toBeGreaterThan(55);
    expect(s?.disconnects).toBeGreaterThanOrEqual(0);
  });

  it('shows each fault: weak signal, battery power, a missing sensor board, and no answer while offline', async () => {
    sim.inject({ device: 'vm-simu1-1', kind: 'weak_signal', minutes: 5 });
    expect((await ask())?.signal).toEqual(WEAK_SIGNAL);
    sim.inject({ device: 'vm-simu1-2', kind: 'power_cut', minutes: 5 });
    expect((await ask())?.power).toEqual({ source: 'BATTERY', battery: { state: 'discharging' } });
    sim.inject({ device: 'vm-simu1-2', kind: 'sensor_board', minutes: 5 });
    expect((await ask())?.sensorBoards).toEqual([{ vat: 1, probe: true, radar: true }]);
    // A fault on the unit is on each of its vats: offline, it answers nothing.
    expect(sim.inject({ device: UNIT, kind: 'offline', minutes: 5 }).device).toBe(UNIT);
    expect(await ask(1_500)).toBeUndefined();
  });
});
