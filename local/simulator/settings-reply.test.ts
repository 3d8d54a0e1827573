import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/free-port';
import { startMqttBroker } from '../stand-ins/mqtt-broker';
import { startSimulator, type SimulatorHandle } from './simulator';

const UNIT = 'unit-352656100000999';

/**
 * Controller settings: a farm's unit answers for the vat it names on its reply topic; a
 * vat of a farm without a unit answers on its own.
 */
describe('simulated controller settings', () => {
  let broker: Awaited<ReturnType<typeof startMqttBroker>>;
  let sim: SimulatorHandle;
  beforeAll(async () => {
    broker = await startMqttBroker(await freePort(), [], () => undefined);
    const vat = { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 };
    sim = await startSimulator({
      mqttUrl: broker.url,
      farms: [
        { fonterra_id: 'SIMS1', timezone: 'Pacific/Auckland', vats: [{ device: 'vm-sims1-1', vat }], knode: [] },
        { fonterra_id: 'SIMS2', timezone: 'Pacific/Auckland', unit: UNIT, vats: [{ device: 'vm-sims2-1', vat }, { device: 'vm-sims2-2', vat }], knode: [] },
      ],
      backfillHours: 0,
      seed: 1,
    });
  });
  afterAll(async () => {
    await sim?.stop();
    await broker?.close();
  });

  /** Publishes a settings command and waits (at most 1.5 s) for the reply on the same thing's reply topic. */
  const ask = async (thing: string, body: Record<string, unknown>): Promise<Record<string, unknown> | undefined> => {
    const client = await connectAsync(broker.url, { clientId: `settings-reply-test-${thing}-${String(body.request_id)}` });
    await client.subscribeAsync(`dts/${thing}/cmd/reply`, { qos: 1 });
    const reply = new Promise<Record<string, unknown> | undefined>((resolve) => {
      client.on('message', (_t, p) => resolve(JSON.parse(p.toString()) as Record<string, unknown>));
      setTimeout(() => resolve(undefined), 1_500);
    });
    await client.publishAsync(`dts/${thing}/cmd/settings`, JSON.stringify(body), { qos: 1 });
    const answer = await reply;
    await client.endAsync();
    return answer;
  };

  it("a vat without a unit answers dts/<thing>/cmd/settings on dts/<thing>/cmd/reply with the request id", async () => {
    expect(await ask('vm-sims1-1', { request_id: 'r-1', settings: { pro_cip_cycle: 3 } })).toEqual({ request_id: 'r-1', return_value: 'Settings applied' });
  });

  it('a unit answers for a vat it serves, and not for one it does not', async () => {
    expect(await ask(UNIT, { request_id: 'r-2', vat: 2, settings: { pro_cip_cycle: 3 } })).toEqual({ request_id: 'r-2', return_value: 'Settings applied' });
    expect(await ask(UNIT, { request_id: 'r-3', vat: 3, settings: { pro_cip_cycle: 3 } })).toBeUndefined();
  });

  it('a unit does not answer for a vat that is offline', async () => {
    sim.inject({ device: 'vm-sims2-1', kind: 'offline', minutes: 30 });
    expect(await ask(UNIT, { request_id: 'r-4', vat: 1, settings: { pro_cip_cycle: 3 } })).toBeUndefined();
  });
});
