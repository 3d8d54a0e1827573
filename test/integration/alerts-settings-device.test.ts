import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_SETTINGS } from '../../shared/alerts/settings';
import { unitThingName } from '../../shared/entities/install';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { startTestStack } from '../support/local-stack';

/**
 * Controller settings (USER_SETTING_ALERT_SET_AUTO): saved, sent to the farm's controller unit over
 * MQTT on dts/<unit>/cmd/settings naming the vat, and the unit's answer on dts/<unit>/cmd/reply
 * returned.
 */
const UNIT = unitThingName(DEMO_UNIT_IMEIS['farm-auto'] as string);
let stack: Awaited<ReturnType<typeof startTestStack>>;
let unit: MqttClient;
let token: string;
const received: { vat: unknown; settings: Record<string, number> }[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.signIn('farmer@vatman.local');
  // This test plays the Auto farm's unit, serving its vat 1 (fon50412-1) only.
  unit = await mqtt.connectAsync(stack.facts.mqtt, { clientId: UNIT });
  await unit.subscribeAsync(`dts/${UNIT}/cmd/settings`, { qos: 1 });
  unit.on('message', (_topic, payload) => {
    const { request_id, vat, settings } = JSON.parse(payload.toString()) as { request_id: string; vat: unknown; settings: Record<string, number> };
    received.push({ vat, settings });
    if (vat !== 1) return;
    void unit.publishAsync(`dts/${UNIT}/cmd/reply`, JSON.stringify({ request_id, return_value: `applied ${Object.keys(settings).length} settings` }), { qos: 1 });
  });
});
afterAll(async () => {
  await unit?.endAsync();
  await stack?.stop();
});

const setAuto = (vat: Record<string, unknown>) =>
  stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_AUTO', farm: 'farm-auto', vat: JSON.stringify(vat) }, token);

describe("controller settings to the vat's unit", () => {
  it('saves, sends, and returns the device’s answer', async () => {
    const res = await setAuto({ _id: 'dev-fon50412-1', ...DEFAULT_AUTO_SETTINGS, pro_refrige_temp_on: 4.5, pro_refrige_temp_off: 3.5 });
    expect(res).toMatchObject({ status: 200, body: { return_value: 'applied 9 settings' } });
    expect(received.at(-1)).toMatchObject({ vat: 1, settings: { pro_refrige_temp_on: 4.5, pro_refrige_temp_off: 3.5 } });
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
