import { describe, expect, it } from 'vitest';
import { defaultPreferences } from '../../shared/alerts/preferences';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import type { Delivery, StoredNotification } from '../ports/alerts';
import type { PushResult, StoredPushSubscription } from '../ports/push';
import { createLogger } from '../lib/logger';
import { makeNotifier } from './notifier';
import type { NotifierDeps } from './notifier-deps';
import { PUSH_ATTEMPTS_BEFORE_TEXT } from './push-delivery';

/**
 * A critical alert's text waits behind its push (decision 092) only while the push may still be
 * seen: a push that fails (gone, refused, unsubscribed, or failing PUSH_ATTEMPTS_BEFORE_TEXT
 * times) sends the text at once instead of after the push minutes (decision 121).
 */
const farm = { _id: 'farm-pro', fonterra_id: '31245', name: 'Totara Downs', package: 'Vat-Man Pro', timezone: 'Pacific/Auckland' } as Farm;
const person = { _id: 'u1', email: 'farmer@vatman.local', phone: '+64211234501', phone_verify: 2, email_verify: 2, firstName: 'A', lastName: 'B', role: 'farmer' } as User;
const START = new Date('2026-11-22T03:31:00.000Z');
const alert: StoredNotification = {
  _id: '2026-11-22T03:30:00.000Z~dev-31245-1~102',
  farm_id: farm._id,
  type: 102,
  status: 1,
  data: { published_at: '2026-11-22T03:30:00.000Z', temp1: 8.46, milk_volume: 4_321, agitator_status: 1 },
  device: { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 },
  created_at: '2026-11-22T03:30:02.000Z',
  delivery_state: 'pending',
  delivered: [],
};
const sub = (id: string): StoredPushSubscription => ({
  id,
  user_id: person._id,
  created_at: START.toISOString(),
  subscription: { endpoint: `https://push.example.com/${id}`, keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } },
});

/** The queue in memory with the repository's conditions; each browser answers the push service's `answers` in turn. */
const world = (answers: Record<string, () => PushResult>) => {
  let clock = START;
  const deliveries = new Map<string, Delivery>();
  const keyOf = (d: Pick<Delivery, 'user_id' | 'channel' | 'escalation' | 'device'>) => `${d.user_id}|${d.channel}|${d.escalation ?? 0}|${d.device ?? ''}`;
  const subs = new Map(Object.keys(answers).map((id) => [id, sub(id)]));
  const texts: string[] = [];
  const pushed: string[] = [];
  const alerts: NotifierDeps['alerts'] = {
    get: async () => alert,
    finishDelivery: async () => {},
    listPendingDelivery: async () => [],
    async addDelivery(d) {
      if (deliveries.has(keyOf(d))) return false;
      deliveries.set(keyOf(d), { ...d, state: 'pending', attempts: 0 });
      return true;
    },
    listDeliveries: async () => [...deliveries.values()],
    listDueDeliveries: async (now) => [...deliveries.values()].filter((d) => (d.state === 'pending' || d.state === 'sending') && d.due_at <= now.toISOString()).sort((a, b) => a.due_at.localeCompare(b.due_at)),
    async claimDelivery(d, lease, now, until) {
      const cur = deliveries.get(keyOf(d));
      if (!cur || !(cur.state === 'pending' || cur.state === 'sending') || cur.due_at > now.toISOString()) return undefined;
      const next: Delivery = { ...cur, state: 'sending', lease, due_at: until.toISOString(), attempts: cur.attempts + 1 };
      deliveries.set(keyOf(d), next);
      return next;
    },
    async settleDelivery(d, lease, o) {
      const cur = deliveries.get(keyOf(d));
      if (cur?.lease !== lease) return false;
      const { lease: _l, ...rest } = cur;
      deliveries.set(keyOf(d), o.state === 'pending' ? { ...rest, state: 'pending', due_at: o.due_at, last_error: o.error } : { ...rest, state: o.state, settled_at: o.at, ...('error' in o ? { last_error: o.error } : {}) });
      return true;
    },
    async hastenDelivery(d, dueAt) {
      const cur = deliveries.get(keyOf(d));
      if (cur?.state !== 'pending' || cur.due_at !== d.due_at) return false;
      deliveries.set(keyOf(d), { ...cur, due_at: dueAt });
      return true;
    },
    reserveSms: async () => true,
    releaseSms: async () => {},
    saveSms: async () => {},
  };
  const notifier = makeNotifier({
    farms: { getFarm: async () => farm, getUser: async () => person },
    settings: { listUserIdsOfFarm: async () => [person._id], getPreferencesOf: async (ids) => new Map(ids.map((id) => [id, defaultPreferences()])), getEscalationOf: async (ids) => new Map(ids.map((id) => [id, { minutes: 15, organization: false, push_minutes: 5 }])) },
    alerts,
    sender: {
      sms: async (_to, text) => {
        texts.push(text);
        return { sent: true };
      },
      email: async () => ({ sent: true }),
    },
    push: {
      subscriptions: { listPushSubscriptions: async () => [...subs.values()], deletePushSubscription: async (_u, id) => void subs.delete(id) },
      sender: {
        ackUrl: 'https://vatman.example/api/user',
        signAck: async () => 'token',
        send: async (s) => {
          const id = s.endpoint.split('/').pop() ?? '';
          pushed.push(id);
          const answer = answers[id];
          if (!answer) throw new Error('no such browser');
          return answer();
        },
      },
    },
    now: () => clock,
    log: createLogger({}, 'error', () => undefined),
  });
  const at = (minutes: number) => {
    clock = new Date(START.getTime() + minutes * 60_000);
  };
  const text = () => [...deliveries.values()].find((d) => d.channel === 'sms' && d.after_push);
  return { notifier, texts, pushed, subs, at, text };
};

const ok = (): PushResult => ({ sent: true, status: 201 });
const gone = (): PushResult => ({ sent: false, gone: true, status: 410 });
const down = (): PushResult => {
  throw new Error('push service answered 503: unavailable');
};

describe('a failed push sends the held text at once', () => {
  it('a push that reaches the browser keeps the text waiting for the push minutes', async () => {
    const w = world({ phone: ok });
    await w.notifier.deliver(alert);
    expect(w.texts).toEqual([]);
    expect(w.text()).toMatchObject({ state: 'pending', due_at: '2026-11-22T03:36:00.000Z' });
  });

  it('the only browser gone (410): the subscription is removed and the text goes in the same run', async () => {
    const w = world({ phone: gone });
    await w.notifier.deliver(alert);
    expect(w.subs.size).toBe(0);
    expect(w.texts).toHaveLength(1);
    expect(w.texts[0]).toMatch(/^Vat-Man Totara Downs Vat 1: Milk over 6C/);
    expect(w.text()?.state).toBe('sent');
  });

  it('a push the service refuses (403: not our key) is dead at once, not retried, and the text goes', async () => {
    const w = world({ phone: () => ({ sent: false, gone: false, status: 403, reason: 'push service answered 403: VAPID' }) });
    await w.notifier.deliver(alert);
    expect(w.texts).toHaveLength(1);
    w.at(10);
    await w.notifier.retryPending();
    expect(w.pushed).toEqual(['phone']);
  });

  it('a push service that keeps failing (503) lets the text go after its third try, not the push minutes', async () => {
    const w = world({ phone: down });
    await w.notifier.deliver(alert);
    expect(w.texts).toEqual([]);
    // Retries 30 s and then 60 s after each failure (RETRY_BACKOFF_MS).
    w.at(0.5);
    await w.notifier.retryPending();
    expect(w.texts).toEqual([]);
    w.at(1.5);
    await w.notifier.retryPending();
    expect(w.pushed).toHaveLength(PUSH_ATTEMPTS_BEFORE_TEXT);
    expect(w.texts).toHaveLength(1);
    // The push keeps its own retries; the text is not sent twice.
    w.at(10);
    await w.notifier.retryPending();
    expect(w.texts).toHaveLength(1);
  });

  it('one browser gone and another that took the push: the text keeps waiting', async () => {
    const w = world({ old: gone, phone: ok });
    await w.notifier.deliver(alert);
    expect(w.subs.has('old')).toBe(false);
    expect(w.texts).toEqual([]);
    expect(w.text()?.state).toBe('pending');
  });
});
