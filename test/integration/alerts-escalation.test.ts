import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/alerts/types';
import type { EscalationStepWire } from '../../shared/api/actions/farmer-notification';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { alertNotifierFromEnv } from '../../lambdas/alerts/deps';
import { createLogger } from '../../lambdas/lib/logger';
import { startTestStack } from '../support/local-stack';
import { until as waitUntil } from '../support/until';
import { chillerOffTrace } from '../support/telemetry';

/**
 * Escalation through the local stack and the SNS outbox stand-in: the chiller-off trace
 * raises 102 and 101 on Totara Downs (farm-pro); the farmer reads the 102 and leaves the 101
 * unread. Under a test clock the delivery queue (the sweep's first step) then re-sends the 101 by
 * text to the farm's user after N (15 min, the default) and to the organization's opted-in member
 * (westfarmer@, Ngata Farming Group, not a user of the farm) after 2N; the read 102 goes to nobody.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let client: MqttClient;
let farmer: string;
let west: string;
const FARMER_PHONE = '+64211234501';
const WEST_PHONE = '+64211234502';

beforeAll(async () => {
  stack = await startTestStack();
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'alerts-escalation' });
  farmer = await stack.signIn('farmer@vatman.local');
  west = await stack.signIn('westfarmer@vatman.local');
});
afterAll(async () => {
  await client?.endAsync();
  await stack?.stop();
});

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitUntil(probe, { timeoutMs });
const START = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60 * 60_000;
const minute = (m: number) => new Date(START + m * 60_000).toISOString();

const list = async () => (await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-pro' }, farmer)).body as Notification[];
const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];
const textsTo = async (phone: string, words: RegExp) => (await outbox()).filter((m) => m.channel === 'sms' && m.to === phone && words.test(m.message));
/** The queue run of the sweep with the clock `minutes` ahead. */
const sweepAt = async (minutes: number) => alertNotifierFromEnv(createLogger({}, 'error'), process.env, undefined, () => new Date(Date.now() + minutes * 60_000)).retryPending();
const steps = async (id: string) =>
  ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_DETAIL', farm: 'farm-pro', item: JSON.stringify({ _id: id }) }, farmer)).body as { escalations?: EscalationStepWire[] }).escalations;

describe('escalation of an unread critical alert', () => {
  it('texts an unread 101 again after N, to the opted-in organization member after 2N, and never a read 102', async () => {
    // The organization member opts in (on their own farm's settings page: the preference is theirs, not a farm's).
    const optIn = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_USER', farm: 'farm-wes', alert_setting: '{}', escalation: JSON.stringify({ minutes: 15, organization: true }) }, west);
    expect(optIn.status).toBe(200);
    expect((optIn.body as { escalation: unknown }).escalation).toEqual({ minutes: 15, organization: true });
    // A bad value is refused and changes nothing.
    const bad = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_USER', farm: 'farm-wes', alert_setting: '{}', escalation: JSON.stringify({ minutes: 0, organization: true }) }, west);
    expect(bad.status).toBe(422);
    expect(((await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_GET_USER', farm: 'farm-wes' }, west)).body as { escalation: unknown }).escalation).toEqual({ minutes: 15, organization: true });

    for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic('vm-31245-1'), JSON.stringify(message), { qos: 1 });
    const alerts = await until(async () => {
      const l = (await list()).filter((n) => n.device.vat_number === 1);
      return l.some((n) => n.type === 101) && l.some((n) => n.type === 102) ? l : undefined;
    });
    const a101 = alerts.find((n) => n.type === 101)!;
    const a102 = alerts.find((n) => n.type === 102)!;
    // The first texts went out at once (the farm's user only).
    await until(async () => ((await textsTo(FARMER_PHONE, /^Vat-Man Totara Downs Vat 1: Milk over 10C/)).length === 1 ? true : undefined));
    // The farmer opens the 102 (read); the 101 stays unread.
    const read = await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_ONE_EDIT', farm: 'farm-pro', item: JSON.stringify({ _id: a102._id }), status: '2' }, farmer);
    expect(read.status).toBe(200);

    // Before N nothing more.
    await sweepAt(10);
    expect(await textsTo(FARMER_PHONE, /Still unread/)).toEqual([]);
    expect((await steps(a101._id))?.map((s) => [s.step, s.recipient, s.state])).toEqual([
      [1, 'Aroha Ngata', 'pending'],
      [2, 'Liam Brennan', 'pending'],
    ]);

    // After N: the farm's user gets the 101 again by text; the read 102 is dropped; the organization member has nothing yet.
    await sweepAt(16);
    const again = await textsTo(FARMER_PHONE, /Still unread/);
    expect(again.map((m) => m.message)).toEqual([expect.stringMatching(/^Vat-Man Totara Downs Vat 1: Still unread: Milk over 10C \(/)]);
    expect(again[0]!.message.length).toBeLessThanOrEqual(160);
    expect(await textsTo(WEST_PHONE, /./)).toEqual([]);

    // The member lengthens their minutes to 20: their step (due at 2N = 30) waits for 2 × 20 = 40.
    const longer = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_USER', farm: 'farm-wes', alert_setting: '{}', escalation: JSON.stringify({ minutes: 20, organization: true }) }, west);
    expect(longer.status).toBe(200);
    await sweepAt(31);
    expect(await textsTo(WEST_PHONE, /./)).toEqual([]);

    // After the new 2N: the opted-in organization member gets it; still nothing about the 102.
    await sweepAt(41);
    const org = await textsTo(WEST_PHONE, /Still unread/);
    expect(org.map((m) => m.message)).toEqual([expect.stringMatching(/^Vat-Man Totara Downs Vat 1: Still unread: Milk over 10C /)]);
    expect((await outbox()).filter((m) => /Still unread: Milk over 6C/.test(m.message + (m.subject ?? '')))).toEqual([]);
    // Another run sends nothing twice.
    await sweepAt(45);
    expect(await textsTo(FARMER_PHONE, /Still unread/)).toHaveLength(1);
    expect(await textsTo(WEST_PHONE, /Still unread/)).toHaveLength(1);

    // Every step is listed in the alert's detail.
    const s101 = await steps(a101._id);
    expect(s101?.map((s) => [s.step, s.recipient, s.channel, s.state])).toEqual([
      [1, 'Aroha Ngata', 'sms', 'sent'],
      [2, 'Liam Brennan', 'sms', 'sent'],
    ]);
    // Step 1 at the farmer's 15 minutes, step 2 at the member's new 2 × 20.
    expect(Date.parse(s101![1]!.due_at) - Date.parse(s101![0]!.due_at)).toBe(25 * 60_000);
    const s102 = await steps(a102._id);
    expect(s102?.map((s) => [s.step, s.state, s.reason])).toEqual([
      [1, 'skipped', 'the alert was read before the escalation was due'],
      [2, 'skipped', 'the alert was read before the escalation was due'],
    ]);
  });
  it('moves a step still waiting to the shorter minutes its person saves after the alert came', async () => {
    const save = (minutes: number) =>
      stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_SET_USER', farm: 'farm-pro', alert_setting: '{}', escalation: JSON.stringify({ minutes, organization: false }) }, farmer);
    expect((await save(60)).status).toBe(200);
    for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic('vm-31245-2'), JSON.stringify(message), { qos: 1 });
    const a101 = await until(async () => (await list()).find((n) => n.device.vat_number === 2 && n.type === 101));
    const stepOne = async () => (await steps(a101._id))?.find((s) => s.step === 1 && s.recipient === 'Aroha Ngata');
    const planned = await until(stepOne);
    expect(Date.parse(planned.due_at) - Date.parse(a101.created_at)).toBe(60 * 60_000);

    // The farmer shortens her minutes to 5: the step waiting for this alert comes due at 5, not 60.
    expect((await save(5)).status).toBe(200);
    const moved = await stepOne();
    expect([moved?.state, Date.parse(moved?.due_at ?? '') - Date.parse(a101.created_at)]).toEqual(['pending', 5 * 60_000]);
    await sweepAt(6);
    const again = await until(async () => {
      const found = (await outbox()).filter((m) => /Vat 2: Still unread: Milk over 10C/.test(`${m.subject ?? ''} ${m.message}`));
      return found.length > 0 ? found : undefined;
    }, 10_000);
    expect(again).toHaveLength(1);
    expect((await stepOne())?.state).toBe('sent');
  });
});
