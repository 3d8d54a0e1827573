import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { knodeMessageSchema, parseDeviceTopic, telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { freePort } from '../../test/support/free-port';
import { DEMO_DEVICES, DEMO_FARMS, DEMO_KNODE, DEMO_UNIT_IMEIS } from '../seed/demo-data';
import { startMqttBroker } from '../stand-ins/mqtt-broker';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from './simulator';
import type { SimFarm } from './sim-farms';

interface Received {
  readonly topic: string;
  readonly body: Record<string, unknown>;
  /** Wall-clock time the subscriber got it. */
  readonly at: number;
}

const farm: SimFarm = {
  fonterra_id: 'SIMT1',
  timezone: 'Pacific/Auckland',
  vats: [
    { device: 'vm-simt1-1', vat: { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 } },
    { device: 'vm-simt1-2', vat: { vat_size: 5700, vat_max_height: 1500, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 } },
  ],
  knode: DEMO_KNODE['farm-pro'],
};

const waitFor = async (cond: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('simulator driver over a real MQTT broker', () => {
  let broker: Awaited<ReturnType<typeof startMqttBroker>>;
  let sub: MqttClient;
  let received: Received[] = [];
  let dir: string;
  let sim: SimulatorHandle | undefined;

  beforeAll(async () => {
    broker = await startMqttBroker(await freePort(), [], () => undefined);
    sub = await connectAsync(broker.url, { clientId: 'simulator-test-subscriber' });
    await sub.subscribeAsync('dts/#', { qos: 1 });
    sub.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown>, at: Date.now() }));
    dir = mkdtempSync(join(tmpdir(), 'vatman-sim-'));
  });
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
    received = [];
  });
  afterAll(async () => {
    await sub.endAsync();
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("tells the tanker each pickup: the litres really in the vat when it starts emptying it", async () => {
    const pickups: { device: string; at: number; litres: number }[] = [];
    sim = await startSimulator({
      mqttUrl: broker.url,
      farms: [farm],
      backfillHours: 48,
      catchUpPerSecond: 50_000,
      seed: 5,
      stateFile: join(dir, 'pickups.json'),
      onPickup: (p) => pickups.push(p),
    });
    await sim.caughtUp;
    // Two days of milkings fill each vat at least once; a tanker takes it when it is due.
    expect(pickups.length).toBeGreaterThanOrEqual(2);
    for (const p of pickups) {
      expect(p.litres).toBeGreaterThan(1_000);
      expect(p.at).toBeLessThanOrEqual(Date.now());
    }
    expect(new Set(pickups.map((p) => p.device)).size).toBe(2);
  }, 60_000);

  it('catches up from the backfill start to now, each message valid and none dated in the future, then stops cleanly', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    sim = await startSimulator({ mqttUrl: broker.url, farms: [farm], backfillHours: 3, catchUpPerSecond: 5_000, seed: 5, stateFile: join(dir, 'a.json') });
    await sim.caughtUp;
    const caughtUpAt = Date.now();
    // Three hours a vat, one a minute; the knode gateway every 10 minutes per asset.
    await waitFor(() => received.filter((r) => r.topic.endsWith('/telemetry')).length >= 2 * 179);
    const telemetry = received.filter((r) => r.topic.endsWith('/telemetry'));
    const knode = received.filter((r) => r.topic.endsWith('/knode'));
    expect(telemetry.length).toBeLessThanOrEqual(2 * 181);
    expect(new Set(telemetry.map((r) => parseDeviceTopic(r.topic)?.thing))).toEqual(new Set(['vm-simt1-1', 'vm-simt1-2']));
    for (const r of telemetry) {
      expect(telemetryMessageSchema.safeParse(r.body).success).toBe(true);
      expect(Date.parse(String(r.body.published_at))).toBeLessThanOrEqual(r.at);
    }
    expect(knode.length).toBeGreaterThanOrEqual(2 * 17);
    for (const r of knode) {
      expect(r.topic).toBe('dts/kn-simt1/knode');
      expect(knodeMessageSchema.safeParse(r.body).success).toBe(true);
      expect(Date.parse(String(r.body.published_at))).toBeLessThanOrEqual(r.at);
    }
    const newest = Math.max(...telemetry.map((r) => Date.parse(String(r.body.published_at))));
    expect(caughtUpAt - newest).toBeLessThan(61_000);
    await sim.stop();
    sim = undefined;
    // No timer of the simulator's is left (the broker and subscriber are the test's own).
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(before);
  });

  it('never publishes ahead of an injected clock, and continues from its state file after a restart', async () => {
    let clock = Date.parse('2026-05-10T03:00:00Z');
    const now = () => new Date(clock);
    const stateFile = join(dir, 'b.json');
    const opts = { mqttUrl: broker.url, farms: [{ ...farm, knode: [] }], backfillHours: 1, catchUpPerSecond: 5_000, seed: 5, stateFile, now };
    sim = await startSimulator(opts);
    await sim.caughtUp;
    await waitFor(() => received.length >= 2 * 59);
    clock += 5 * 60_000; // five more minutes pass
    await waitFor(() => received.length >= 2 * 64);
    await new Promise((r) => setTimeout(r, 300));
    for (const r of received) expect(Date.parse(String(r.body.published_at))).toBeLessThanOrEqual(clock);
    const first = [...received];
    await sim.stop();
    received = [];

    clock += 10 * 60_000;
    sim = await startSimulator(opts);
    await sim.caughtUp;
    await waitFor(() => received.length >= 2 * 9);
    await new Promise((r) => setTimeout(r, 300));
    for (const device of ['vm-simt1-1', 'vm-simt1-2']) {
      const times = (rs: Received[]) => rs.filter((r) => r.topic === `dts/${device}/telemetry`).map((r) => Date.parse(String(r.body.published_at)));
      const lastBefore = Math.max(...times(first));
      const after = times(received).sort((a, b) => a - b);
      // The series picks up the next minute after the last one published: no gap, no repeat.
      expect(after[0]).toBe(lastBefore + 60_000);
      expect(after.every((t, i) => i === 0 || t - (after[i - 1] ?? 0) === 60_000)).toBe(true);
      expect(after[after.length - 1]).toBeLessThanOrEqual(clock);
    }
  });

  it('with speed > 1 runs the clock that many times faster until it reaches the present', async () => {
    sim = await startSimulator({ mqttUrl: broker.url, farms: [{ ...farm, vats: farm.vats.slice(0, 1), knode: [] }], backfillHours: 1, speed: 3_600, seed: 5 });
    const started = Date.now();
    await sim.caughtUp;
    // One simulated hour at 3,600× is about one real second (not instant, not an hour).
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(() => received.length >= 59);
  });

  it('injects faults through the control server and rejects bad input with a clear 400', async () => {
    sim = await startSimulator({ mqttUrl: broker.url, farms: [{ ...farm, knode: [] }], backfillHours: 0.1, seed: 5, controlPort: 0 });
    await sim.caughtUp;
    const url = `${sim.controlUrl}/faults`;
    const post = (body: string) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

    const bad = await post('{"device":"vm-simt1-1","kind":"flood","minutes":10}');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/kind must be one of power_cut, agitator_stop/);
    const notJson = await post('power_cut please');
    expect(notJson.status).toBe(400);
    const unknown = await post('{"device":"vm-nope-1","kind":"power_cut","minutes":10}');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/unknown device 'vm-nope-1'.*vm-simt1-1/);
    const minutes = await post('{"device":"vm-simt1-1","kind":"power_cut","minutes":0}');
    expect(((await minutes.json()) as { error: string }).error).toMatch(/minutes must be at least 1/);

    const ok = await post('{"device":"vm-simt1-2","kind":"chiller_off","minutes":120}');
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ device: 'vm-simt1-2', kind: 'chiller_off' });
    const list = (await (await fetch(url)).json()) as { faults: { device: string; kind: string }[] };
    expect(list.faults).toEqual([expect.objectContaining({ device: 'vm-simt1-2', kind: 'chiller_off' })]);

    // The same through the API: from the device's next simulated minute.
    const cut = sim.inject({ device: 'vm-simt1-1', kind: 'power_cut', minutes: 5 });
    expect(Date.parse(cut.until) - Date.parse(cut.from)).toBe(5 * 60_000);
    expect(Date.parse(cut.from)).toBeGreaterThan(Date.now() - 60_000);
    expect(sim.faults().map((f) => `${f.device} ${f.kind}`).sort()).toEqual(['vm-simt1-1 power_cut', 'vm-simt1-2 chiller_off']);
    expect(() => sim?.inject({ device: 'vm-x', kind: 'power_cut', minutes: 5 })).toThrow(/unknown device/);
    // Controller faults need a Vat-Man Auto controller, which this farm's vats lack.
    expect(() => sim?.inject({ device: 'vm-simt1-1', kind: 'controller_off', minutes: 5 })).toThrow('controller_off needs a vat with a Vat-Man Auto controller; vm-simt1-1 has none');
  });

  it('builds its farms from the demo data', () => {
    const farms = simFarmsFrom(DEMO_FARMS, DEMO_DEVICES, DEMO_KNODE);
    expect(farms.map((f) => f.vats.length)).toEqual(DEMO_FARMS.map((f) => f.install_numVats));
    expect(farms.find((f) => f.fonterra_id === 'FON50412')?.knode).toHaveLength(6);
    // Only the Vat-Man Auto farm's vats report a controller.
    expect(farms.filter((f) => f.controller).map((f) => f.fonterra_id)).toEqual(DEMO_FARMS.filter((f) => f.package === 'Vat-Man Auto').map((f) => f.fonterra_id));
    expect(farms.filter((f) => f.controller)).toHaveLength(1);
    // The dairy company's farms (supplier FON) report the quality estimates; the others do not.
    expect(farms.filter((f) => f.quality).map((f) => f.fonterra_id)).toEqual(['31245', 'FON50412']);
    expect(farms[0]?.unit).toBeUndefined();
    expect(simFarmsFrom(DEMO_FARMS, DEMO_DEVICES, DEMO_KNODE, DEMO_UNIT_IMEIS).find((f) => f.fonterra_id === '31245')?.unit).toBe(`unit-${DEMO_UNIT_IMEIS['farm-pro']}`);
    expect(farms[0]?.vats[0]).toEqual({ device: 'vm-ocd40721-1', vatNumber: 1, vat: { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 } });
  });
});
