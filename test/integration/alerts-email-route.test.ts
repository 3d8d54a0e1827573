import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { CONFIRMATION_SUBJECT } from '../../local/stand-ins/sns-topics';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { startTestStack } from '../support/local-stack';
import { until as waitUntil } from '../support/until';

/**
 * Alert email through SNS with a topic per user, on the local stack (the outbox answers the topic
 * and subscription actions like SNS, confirmation links included): a sign-up's post-confirmation
 * trigger makes the user's topic and subscription; nothing is emailed or recorded as delivered
 * until the address is confirmed; Resend sends the confirmation again; an alert goes to that
 * address only; a changed address is followed and the old one gets nothing more.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let client: MqttClient;
const PREFIX = 'arn:aws:sns:us-east-1:000000000000:vatman-local-alert-email-';

beforeAll(async () => {
  stack = await startTestStack();
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'alerts-email-route' });
});
afterAll(async () => {
  await client?.endAsync();
  await stack?.stop();
});

const repo = () => dynamoAlertSettingsRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
const farms = () => dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
const alertsRepo = () => dynamoAlertsRepository(createDocumentClient(), process.env.ALERTS_TABLE as string);
const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];
const subscriptions = () =>
  (JSON.parse(readFileSync(join(stack.dataDir, 'outbox', 'topics.json'), 'utf8')) as { subscriptions: { topic: string; endpoint: string; protocol: string; confirmed: boolean }[] }).subscriptions;

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 30_000) => waitUntil(probe, { timeoutMs });

/** Milk over 10 °C on vat 2 of Totara Downs for 10 minutes, from `start`: one 101 (and a 102). */
const publishWarm = async (start: number) => {
  for (let m = 0; m <= 10; m++) {
    await client.publishAsync(
      telemetryTopic('vm-31245-2'),
      JSON.stringify({ published_at: new Date(start + m * 60_000).toISOString(), milk_level: 1000, temp1: 11, agitator_status: 1, state_machine: 'storage', battery: { status: '0x0B' } }),
      { qos: 1 },
    );
  }
};

/** Cold readings (3 °C) for `minutes` from `start`: the warm conditions of an earlier publishWarm clear (hysteresis), so the next raises afresh. */
const publishCold = async (start: number, minutes: number) => {
  for (let m = 0; m < minutes; m++) {
    await client.publishAsync(
      telemetryTopic('vm-31245-2'),
      JSON.stringify({ published_at: new Date(start + m * 60_000).toISOString(), milk_level: 1000, temp1: 3, agitator_status: 1, state_machine: 'storage', battery: { status: '0x0B' } }),
      { qos: 1 },
    );
  }
};

/** The newest confirmation email to an address, and its link (the outbox models SNS's "Confirm subscription"). */
const confirmations = async (to: string) => (await outbox()).filter((m) => m.to === to && m.subject === CONFIRMATION_SUBJECT);
const linkOf = (m: OutboxMessage) => /(http:\/\/\S+\/confirm\?Token=\S+)/.exec(m.message)?.[1] ?? '';
const alertEmailsTo = async (sub: string, after = 0) =>
  (await outbox()).slice(after).filter((x) => x.channel === 'email' && x.topic === `${PREFIX}${sub}` && x.subject !== CONFIRMATION_SUBJECT);

describe('alert email routes', () => {
  const email = `route.${Date.now()}@example.nz`;
  let sub = '';
  let token = '';
  const status = async () => (await stack.post('/api/setting/profile', { type: 'USER_ALERT_EMAIL_STATUS' }, token)).body as { status: string };

  it('a sign-up gets its own topic with one email subscription to its address, pending until the link is followed', async () => {
    const res = await stack.post('/api/user', {
      type: 'USER_SIGN_UP',
      gRecaptchaResponse: '',
      user: JSON.stringify({ firstName: 'Mere', lastName: 'Route', email, phone: '021 555 0199', password: 'route-pass-1' }),
    });
    expect(res.status).toBe(200);
    token = (res.body as { token: string }).token;
    const me = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token);
    sub = (me.body as { user: { _id: string } }).user._id;
    const route = await until(async () => repo().getEmailRoute(sub));
    expect(route).toMatchObject({ email, topic_arn: `${PREFIX}${sub}`, subscription_arn: expect.stringMatching(new RegExp(`^${PREFIX}${sub}:`)) });
    expect(subscriptions().filter((s) => s.topic === route.topic_arn)).toEqual([expect.objectContaining({ endpoint: email, protocol: 'email', confirmed: false })]);
    expect(await confirmations(email)).toHaveLength(1);
    expect(await status()).toEqual({ status: 'pending' });
  });

  it('an alert to the unconfirmed address is not sent nor recorded as delivered', async () => {
    await farms().linkUserToFarm(sub, 'farm-pro');
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 120 * 60_000;
    await publishWarm(start);
    const delivery = await until(async () => {
      const mine = (await alertsRepo().list('farm-pro')).map((n) => n._id);
      for (const id of mine) {
        const d = (await alertsRepo().listDeliveries('farm-pro', id)).find((x) => x.user_id === sub && x.channel === 'email' && x.state !== 'pending' && x.state !== 'sending');
        if (d) return d;
      }
      return undefined;
    });
    expect(delivery.state).toBe('unconfirmed');
    expect(await alertEmailsTo(sub)).toEqual([]);
  });

  it('Resend sends the confirmation again (the outbox shows it); once the link is followed the status is confirmed', async () => {
    const res = await stack.post('/api/setting/profile', { type: 'USER_ALERT_EMAIL_RESEND' }, token);
    expect(res).toEqual({ status: 200, body: { status: 'pending' } });
    const mails = await confirmations(email);
    expect(mails).toHaveLength(2);
    const confirmed = await fetch(linkOf(mails[1] as OutboxMessage));
    expect(confirmed.status).toBe(200);
    expect(await status()).toEqual({ status: 'confirmed' });
    // Confirmed: a resend sends nothing more.
    expect((await stack.post('/api/setting/profile', { type: 'USER_ALERT_EMAIL_RESEND' }, token)).body).toEqual({ status: 'confirmed' });
    expect(await confirmations(email)).toHaveLength(2);
  });

  it('an alert is emailed to that address only; after a change of address (confirmed), to the new one only', async () => {
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 60 * 60_000;
    // The earlier warm stretch's conditions clear first, whether or not the sweep has run since (a gap alone clears nothing).
    await publishCold(start - 45 * 60_000, 30);
    await publishWarm(start);
    const first = await until(async () => {
      const m = await alertEmailsTo(sub);
      return m.length > 0 ? m : undefined;
    });
    expect(new Set(first.map((m) => m.to))).toEqual(new Set([email]));

    // The address changes on the user record (as a profile edit would); the route follows it, and the new address confirms.
    const user = await farms().getUser(sub);
    if (!user) throw new Error('no user record');
    const changed = `changed.${email}`;
    await farms().putUser({ ...user, email: changed });
    expect(await status()).toEqual({ status: 'pending' });
    await fetch(linkOf((await confirmations(changed))[0] as OutboxMessage));
    expect(await status()).toEqual({ status: 'confirmed' });
    const before = (await outbox()).length;
    // Cooled, then warm again later: new alerts.
    for (let m = 11; m <= 40; m++) {
      await client.publishAsync(
        telemetryTopic('vm-31245-2'),
        JSON.stringify({ published_at: new Date(start + m * 60_000).toISOString(), milk_level: 1000, temp1: m < 35 ? 3 : 11, agitator_status: 1, state_machine: 'storage', battery: { status: '0x0B' } }),
        { qos: 1 },
      );
    }
    await publishWarm(start + 41 * 60_000);
    const later = await until(async () => {
      const m = await alertEmailsTo(sub, before);
      return m.length > 0 ? m : undefined;
    });
    expect(new Set(later.map((m) => m.to))).toEqual(new Set([changed]));
    expect(await repo().getEmailRoute(sub)).toMatchObject({ email: changed, topic_arn: `${PREFIX}${sub}` });
    expect(subscriptions().filter((s) => s.topic === `${PREFIX}${sub}`).map((s) => s.endpoint)).toEqual([changed]);
  });
});
