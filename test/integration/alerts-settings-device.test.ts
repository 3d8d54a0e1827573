import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_SETTINGS } from '../../shared/alerts/settings';
import { startTestStack } from '../support/local-stack';

/**
 * Controller settings (USER_SETTING_ALERT_SET_AUTO): saved, sent to the vat over MQTT on
 * dts/<thing>/cmd/settings, and the device's answer on dts/<thing>/cmd/reply returned.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let device: MqttClient;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.signIn('farmer@vatman.local');
  // This test plays the vat vm-fon50412-1: it applies the settings and answers.
  device = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'vm-fon50412-1' });
  await device.subscribeAsync('dts/vm-fon50412-1/cmd/settings', { qos: 1 });
  device.on('message', (topic, payload) => {
    const { request_id, settings } = JSON.parse(payload.toString()) as { request_id: string; settings: Record<string, number> };
    void device.publishAsync('dts/vm-fon50412-1/cmd/reply', JSON.stringify({ request_id, return_value: `applied ${Object.keys(settings).length} settings` }), { qos: 1 });
  });
});
afterAll(async () => {
  await device?.endAsync();
  await stack?.stop();
});

const setAuto = (vat: Record<string, unknown>) =>
  stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_AUTO', farm: 'farm-auto', vat: JSON.stringify(vat) }, token);

describe('controller settings to the vat', () => {
  it('saves, sends, and returns the device’s answer', async () => {
    const res = await setAuto({ _id: 'dev-fon50412-1', ...DEFAULT_AUTO_SETTINGS, pro_refrige_temp_on: 4.5, pro_refrige_temp_off: 3.5 });
    expect(res).toMatchObject({ status: 200, body: { return_value: 'applied 9 settings' } });
    const got = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_GET', farm: 'farm-auto' }, token);
    const vats = (got.body as { vats: { _id: string; auto_settings: Record<string, number> }[] }).vats;
    expect(vats.find((v) => v._id === 'dev-fon50412-1')?.auto_settings).toMatchObject({ pro_refrige_temp_on: 4.5, pro_refrige_temp_off: 3.5 });
  });

  it('a vat that does not answer: a clear result after a few seconds, not a hang', async () => {
    const started = Date.now();
    const res = await setAuto({ _id: 'dev-fon50412-2', pro_cip_cycle: 4 });
    expect(res.status).toBe(200);
    expect((res.body as { return_value: string }).return_value).toMatch(/^no answer from the vat within 5 seconds/);
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('another farm’s vat is a 403', async () => {
    expect((await setAuto({ _id: 'dev-31245-1', pro_cip_cycle: 4 })).status).toBe(403);
  });
});
