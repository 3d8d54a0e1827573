import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/free-port';
import { startMqttBroker } from '../stand-ins/mqtt-broker';
import { startSimulator, type SimulatorHandle } from './simulator';

/** A simulated vat answers controller settings on its reply topic (issue 6). */
describe('simulated vat and controller settings', () => {
  let broker: Awaited<ReturnType<typeof startMqttBroker>>;
  let sim: SimulatorHandle;
  beforeAll(async () => {
    broker = await startMqttBroker(await freePort(), [], () => undefined);
    const vat = { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 };
    sim = await startSimulator({ mqttUrl: broker.url, farms: [{ fonterra_id: 'SIMS1', timezone: 'Pacific/Auckland', vats: [{ device: 'vm-sims1-1', vat }], knode: [] }], backfillHours: 0, seed: 1 });
  });
  afterAll(async () => {
    await sim?.stop();
    await broker?.close();
  });

  it('answers dts/<thing>/cmd/settings on dts/<thing>/cmd/reply with the request id', async () => {
    const client = await connectAsync(broker.url, { clientId: 'settings-reply-test' });
    await client.subscribeAsync('dts/vm-sims1-1/cmd/reply', { qos: 1 });
    const reply = new Promise<Record<string, unknown>>((resolve) => client.on('message', (_t, p) => resolve(JSON.parse(p.toString()) as Record<string, unknown>)));
    await client.publishAsync('dts/vm-sims1-1/cmd/settings', JSON.stringify({ request_id: 'r-1', settings: { pro_cip_cycle: 3 } }), { qos: 1 });
    expect(await reply).toEqual({ request_id: 'r-1', return_value: 'Settings applied' });
    await client.endAsync();
  });
});
