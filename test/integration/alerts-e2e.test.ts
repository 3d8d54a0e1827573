import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/alerts/types';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { alertProcessorFromEnv } from '../../lambdas/alerts/deps';
import { createLogger } from '../../lambdas/lib/logger';
import { startTestStack } from '../support/local-stack';
import { until as waitUntil } from '../support/until';
import { chillerOffTrace } from '../support/telemetry';

/**
 * Alerts end to end: a chiller left off, as a device would report it over MQTT, through the
 * ingest and the alert engine, to the farmer's notification list and the SNS outbox.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let client: MqttClient;
let token: string;
const PHONE = '+64211234501';
const EMAIL = 'farmer@vatman.local';

beforeAll(async () => {
  stack = await startTestStack();
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'alerts-e2e' });
  token = await stack.signIn(EMAIL);
});
afterAll(async () => {
  await client?.endAsync();
  await stack?.stop();
});

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitUntil(probe, { timeoutMs });

const START = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60 * 60_000;
const minute = (m: number) => new Date(START + m * 60_000).toISOString();

/** The chiller-left-off trace of test/support/telemetry.ts: 102 due at minute 73, 101 at minute 153. */
const publishChillerOff = async (thing: string) => {
  for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic(thing), JSON.stringify(message), { qos: 1 });
};

const list = async () => (await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-pro' }, token)).body as Notification[];
const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];
const forFarmer = (messages: OutboxMessage[], vat: number) =>
  messages.filter((m) => (m.channel === 'sms' ? m.to === PHONE : m.to === EMAIL) && (m.subject ?? m.message).includes(`Vat ${vat}`));

describe('a chiller left off', () => {
  it('raises 102 then 101, once each, listed and sent by SMS and email to a user with both on', async () => {
    await publishChillerOff('vm-31245-1');
    const alerts = await until(async () => {
      const l = (await list()).filter((n) => n.device.vat_number === 1);
      return l.length >= 2 && l.some((n) => n.type === 101) ? l : undefined;
    });
    const byTime = [...alerts].sort((a, b) => a.data.published_at.localeCompare(b.data.published_at));
    expect(byTime.map((n) => [n.type, n.data.published_at])).toEqual([
      [102, minute(73)],
      [101, minute(153)],
    ]);
    expect(byTime[0]?.data).toMatchObject({ temp1: 6.15, agitator_status: 1 });
    expect((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_STATUS', farm: 'farm-pro' }, token)).body).toBe('YES');

    const sent = await until(async () => {
      const m = forFarmer(await outbox(), 1);
      return m.length >= 4 ? m : undefined;
    });
    const kinds = sent.map((m) => `${m.channel}:${/over 10C/.test(m.subject ?? m.message) ? 101 : 102}`).sort();
    expect(kinds).toEqual(['email:101', 'email:102', 'sms:101', 'sms:102']);
    const sms102 = sent.find((m) => m.channel === 'sms' && m.message.includes('over 6C'));
    expect(sms102?.message).toMatch(/^Vat-Man Totara Downs Vat 1: Milk over 6C \(6\.2C, 6100 L\) at \d\d:\d\d /);
    expect(sms102?.message.length).toBeLessThanOrEqual(160);

    // Redelivering the whole trace raises nothing more.
    await publishChillerOff('vm-31245-1');
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await list()).filter((n) => n.device.vat_number === 1)).toHaveLength(2);
    expect(forFarmer(await outbox(), 1)).toHaveLength(4);
  });

  it('email only once the farmer turns text off for that alert type', async () => {
    const saved = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_USER', farm: 'farm-pro', alert_setting: JSON.stringify({ milk_warm: { email: true, text: false } }) }, token);
    expect(saved.status).toBe(200);
    await publishChillerOff('vm-31245-2');
    const sent = await until(async () => {
      const m = forFarmer(await outbox(), 2);
      return m.length >= 2 && (await list()).filter((n) => n.device.vat_number === 2).length >= 2 ? m : undefined;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(forFarmer(await outbox(), 2).map((m) => m.channel)).toEqual(['email', 'email']);
    expect(sent.every((m) => m.channel === 'email')).toBe(true);
  });

  it('counts the texts sent this month beside the allowance', async () => {
    const res = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_GET_USER', farm: 'farm-pro' }, token);
    expect((res.body as { sms: { sent: number; total: number } }).sms).toEqual({ sent: 2, total: 120 });
  });
});

describe('a power cut', () => {
  /** Readings every 30 s for 20 minutes; mains off (battery register even) for `offSeconds` from minute 5. */
  const publishCut = async (thing: string, offSeconds: number) => {
    for (let i = 0; i <= 40; i++) {
      const sec = i * 30;
      const off = sec >= 300 && sec < 300 + offSeconds;
      await client.publishAsync(
        telemetryTopic(thing),
        JSON.stringify({ published_at: new Date(START + sec * 1000).toISOString(), milk_level: 800, temp1: 4, agitator_status: 1, state_machine: 'storage', battery: { status: off ? '0x0A' : '0x0B' } }),
        { qos: 1 },
      );
    }
  };
  const outages = async (farm: string) =>
    ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm }, token)).body as Notification[]).filter((n) => n.type === 301);

  it('shorter than 5 minutes raises nothing; 6 minutes raises 301 once', async () => {
    await publishCut('vm-ocd40721-1', 4 * 60 + 59);
    await publishCut('vm-fon50412-1', 6 * 60);
    const raised = await until(async () => {
      const l = await outages('farm-auto');
      return l.length > 0 ? l : undefined;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(raised).toHaveLength(1);
    expect(await outages('farm-auto')).toHaveLength(1);
    expect(raised[0]?.data.published_at).toBe(new Date(START + 600 * 1000).toISOString());
    // The short cut's device has had all its readings processed, and raised nothing.
    const last = new Date(START + 40 * 30 * 1000).toISOString();
    await until(async () => {
      const res = await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-lite' }, token);
      const vats = (res.body as { vats: { last_updated: { published_at: string } | null }[] }).vats;
      return vats[0]?.last_updated?.published_at === last ? true : undefined;
    });
    expect(await outages('farm-lite')).toEqual([]);
  });
});

describe('a Vat-Man Auto controller', () => {
  it('switched off for 6 minutes with milk in the vat raises 114 OffPosition once, through MQTT and the ingest', async () => {
    // vat 2 of Rimu Valley: on auto for 10 minutes, then off for 6.
    for (let m = 0; m <= 16; m++) {
      await client.publishAsync(
        telemetryTopic('vm-fon50412-2'),
        JSON.stringify({ published_at: minute(m), milk_level: 1500, temp1: 4, agitator_status: 1, state_machine: 'storage', battery: { status: '0x0B' }, controller_status: m < 10 ? 'auto' : 'off' }),
        { qos: 1 },
      );
    }
    const off = await until(async () => {
      const l = ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-auto' }, token)).body as Notification[]).filter(
        (n) => n.device.vat_number === 2 && n.type >= 112 && n.type <= 114,
      );
      return l.length > 0 ? l : undefined;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(off.map((n) => [n.type, n.data.published_at])).toEqual([[114, minute(15)]]);
  });
});

describe('the sweep', () => {
  it('raises OFFLINE (502) for a device silent over 15 minutes, once, and delivers it', async () => {
    // vm-31245-1's last reading (above) arrived a few seconds ago: the sweep runs 16 minutes later.
    const later = () => new Date(Date.now() + 16 * 60_000);
    const sweep = alertProcessorFromEnv(createLogger({}, 'error'), process.env, undefined, later);
    await sweep.sweepAll();
    await sweep.sweepAll();
    const offline = (await list()).filter((n) => n.type === 502 && n.device.vat_number === 1);
    expect(offline).toHaveLength(1);
    expect(offline[0]?.data.published_at).toBe(minute(170));
    const mail = await until(async () => {
      const m = (await outbox()).filter((x) => x.channel === 'email' && x.to === EMAIL && /offline/i.test(x.subject ?? ''));
      return m.length > 0 ? m : undefined;
    });
    expect(mail.length).toBeGreaterThan(0);
  });
});

