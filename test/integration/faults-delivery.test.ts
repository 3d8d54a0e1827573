import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { alertNotifierFromEnv } from '../../lambdas/alerts/deps';
import { MAX_ATTEMPTS, RETRY_BACKOFF_MS } from '../../lambdas/alerts/notifier-deps';
import { createLogger } from '../../lambdas/lib/logger';
import type { Delivery } from '../../lambdas/ports/alerts';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import type { Notification } from '../../shared/alerts/types';
import { startTestStack } from '../support/local-stack';

/*
 * Cases 3 and 5 (alert delivery): fault injection on a whole local stack, the real notifier,
 * dynalite and the SNS outbox, with a clock the test moves (no waiting). Every case asserts: each alert delivered exactly once
 * per channel the user chose, and nothing marked delivered that was not.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  // These cases are about each alert's first delivery: the farm's users have escalation off, so
  // no later re-send of an unread alert (alerts-escalation.test.ts) joins the queue.
  const settings = dynamoAlertSettingsRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
  for (const id of await settings.listUserIdsOfFarm('farm-pro')) await settings.putEscalation(id, { minutes: null, organization: false });
});
afterAll(async () => {
  stack?.sns.setDown(false);
  await stack?.stop();
});

const alerts = () => dynamoAlertsRepository(createDocumentClient(), process.env.ALERTS_TABLE as string);
const farms = () => dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];

/** A clock the test moves: the notifiers' `now`. */
const clock = { at: Date.now() };
const now = () => new Date(clock.at);
const advance = (ms: number) => {
  clock.at += ms;
};
const notifier = () => alertNotifierFromEnv(createLogger({}, 'error'), process.env, undefined, now);

/** Totara Downs (farm-pro): the demo farmer Aroha gets texts and email (all preferences on, phone verified, address confirmed). */
const FARM = 'farm-pro';
const DEVICE = { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 };
/** Each case's alerts, told apart in the outbox by their milk volume (in the text and the email). */
let volume = 5_000;
const raiseAlerts = async (count: number): Promise<{ n: Notification; marker: string }[]> => {
  const out: { n: Notification; marker: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    // Texts give the volume to 10 L.
    volume += 10;
    const published = new Date(clock.at - (i + 1) * 60_000).toISOString();
    const n: Notification = {
      _id: `${published}~${DEVICE._id}~102`,
      farm_id: FARM,
      type: 102,
      status: 1,
      data: { published_at: published, temp1: 8.4, milk_volume: volume, agitator_status: 1 },
      device: DEVICE,
      created_at: now().toISOString(),
    };
    expect(await alerts().raise(n, false)).toBe('created');
    out.push({ n, marker: `${volume} L` });
  }
  return out;
};

/** The recipients and channels of farm-pro's alerts: every linked user but the showroom account, on both channels. */
const expectedChannels = async () => {
  const ids = await dynamoAlertSettingsRepository(createDocumentClient(), process.env.FARMS_TABLE as string).listUserIdsOfFarm(FARM);
  const users = await Promise.all(ids.map((id) => farms().getUser(id)));
  return users.filter((u) => u && !u.is_demo).flatMap((u) => [`${u?.phone}|sms`, `${u?.email}|email`]).sort();
};

/** Exactly once per channel per user, in the outbox and in the queue; nothing marked sent that the outbox lacks. */
const expectDeliveredOnce = async (raised: { n: Notification; marker: string }[]) => {
  const messages = (await outbox()).filter((m) => m.subject !== 'AWS Notification - Subscription Confirmation');
  const wanted = await expectedChannels();
  expect(wanted.length).toBeGreaterThan(0);
  for (const { n, marker } of raised) {
    const got = messages.filter((m) => m.message.includes(marker)).map((m) => `${m.to}|${m.channel}`).sort();
    expect(got, n._id).toEqual(wanted);
    const deliveries: Delivery[] = await alerts().listDeliveries(FARM, n._id);
    expect(deliveries.map((d) => d.state)).toEqual(deliveries.map(() => 'sent'));
    expect(deliveries).toHaveLength(wanted.length);
  }
};

/** Runs the queue as the sweep does until nothing is due, moving the clock a minute a run. */
const drain = async (maxMinutes: number) => {
  for (let m = 0; m < maxMinutes; m += 1) {
    await notifier().retryPending();
    if ((await alerts().listDueDeliveries(new Date(clock.at + 24 * 60 * 60_000), 10)).length === 0) return;
    advance(60_000);
  }
};

describe('delivery faults (cases 3 and 5)', () => {
  it('(3) SNS down for 10 minutes, then back: nothing is marked sent while it is down, then each alert goes out once per channel', async () => {
    const raised = await raiseAlerts(3);
    const before = (await outbox()).length;
    stack.sns.setDown(true);
    // The run that raised them tries at once …
    for (const { n } of raised) expect(await notifier().deliver({ ...n, delivery_state: 'pending', delivered: [] })).toBe('pending');
    // … and the sweep every minute for the ten minutes SNS is down.
    for (let m = 0; m < 10; m += 1) {
      advance(60_000);
      expect(await notifier().retryPending()).toBe(0);
    }
    expect((await outbox()).length).toBe(before);
    for (const { n } of raised) {
      const ds = await alerts().listDeliveries(FARM, n._id);
      expect(ds.length).toBeGreaterThan(0);
      // Retried with backoff, never marked sent, not yet given up.
      for (const d of ds) {
        expect(d.state).toBe('pending');
        expect(d.attempts).toBeGreaterThan(1);
        expect(d.last_error).toBeTruthy();
      }
    }
    stack.sns.setDown(false);
    await drain(60);
    await expectDeliveredOnce(raised);
  });

  it('SNS down past the last retry: each delivery is a dead letter (never marked sent, nothing more sent after), listed for Admins', async () => {
    const [raised] = await raiseAlerts(1);
    if (!raised) throw new Error('no alert');
    stack.sns.setDown(true);
    try {
      await notifier().deliver({ ...raised.n, delivery_state: 'pending', delivered: [] });
      for (const wait of RETRY_BACKOFF_MS) {
        advance(wait);
        await notifier().retryPending();
      }
    } finally {
      stack.sns.setDown(false);
    }
    const ds = await alerts().listDeliveries(FARM, raised.n._id);
    expect(ds.map((d) => `${d.channel}:${d.state}:${d.attempts}`).sort()).toEqual([`email:dead:${MAX_ATTEMPTS}`, `sms:dead:${MAX_ATTEMPTS}`]);
    expect((await outbox()).filter((m) => m.message.includes(raised.marker))).toEqual([]);
    // Nothing left to retry, and the operators see them.
    await drain(5);
    expect((await outbox()).filter((m) => m.message.includes(raised.marker))).toEqual([]);
    const admin = await stack.signIn('admin@vatman.local');
    const res = await stack.post('/api/admin/farm', { type: 'FARM_DELIVERY_DEAD_LETTERS' }, admin);
    expect(res.status).toBe(200);
    const mine = (res.body as { alert_id: string; channel: string; attempts: number; last_error: string; recipient: string }[]).filter((d) => d.alert_id === raised.n._id);
    expect(mine.map((d) => d.channel).sort()).toEqual(['email', 'sms']);
    for (const d of mine) {
      expect(d.attempts).toBe(MAX_ATTEMPTS);
      expect(d.last_error).toBeTruthy();
    }
    expect(mine.find((d) => d.channel === 'sms')?.recipient).toBe('+64211234501');
  });

  it('(5) two sweeps at once: each alert is delivered once per channel', async () => {
    const raised = await raiseAlerts(4);
    // Raised but not delivered (the raising run crashed): both sweeps plan and send the same alerts at the same time.
    const [a, b] = [notifier(), notifier()];
    const counts = await Promise.all([a.retryPending(), b.retryPending(), a.retryPending()]);
    const wanted = await expectedChannels();
    // No more sends than deliveries (the stack's own sweep may take some of them too).
    expect(counts.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(raised.length * wanted.length);
    await expectDeliveredOnce(raised);
  });
});
