import { createHash } from 'node:crypto';
import { isCritical } from '../../shared/alerts/escalation';
import { pushText, type MessageFacts } from '../../shared/alerts/messages';
import { DEFAULT_PUSH_MINUTES, vatPagePath, type PushPayload } from '../../shared/alerts/push';
import type { AlertsRepository, Delivery, DeliveryOutcome, NewDelivery, StoredNotification } from '../ports/alerts';
import type { PushSender, PushSubscriptionStore } from '../ports/push';
import type { Logger } from '../lib/logger';

/** What the notifier needs for pushes (absent: no push channel, e.g. a function without the ports). */
export interface PushDeps {
  readonly subscriptions: Pick<PushSubscriptionStore, 'listPushSubscriptions' | 'deletePushSubscription'>;
  readonly sender: PushSender;
}

/**
 * How long the push service keeps a push for a device that is offline: past the text's own wait
 * (the longest push minutes), the text has gone and the push is old news, but a phone that comes
 * back within the day still shows what happened.
 */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** How long an acknowledgement a push carries is good for. */
const ACK_VALID_SECONDS = 2 * 24 * 60 * 60;

/** A critical alert asks the device to wake at once (RFC 8030 Urgency); others may wait for the device's own rhythm. */
const urgencyOf = (type: number): 'high' | 'normal' => (isCritical(type) ? 'high' : 'normal');

/**
 * The alert's push deliveries to the user's browsers (one each, planned once: the queue keys them by
 * subscription). Answers whether a push was planned or already is, so a critical alert's text can
 * wait behind it.
 */
export const planPushes = async (
  push: PushDeps,
  add: (d: NewDelivery) => Promise<boolean>,
  base: Pick<NewDelivery, 'farm_id' | 'alert_id' | 'user_id'>,
  recorded: ReadonlySet<string>,
  at: string,
): Promise<boolean> => {
  const subs = await push.subscriptions.listPushSubscriptions(base.user_id);
  for (const s of subs) if (!recorded.has(`${base.user_id}:push:${s.id}`)) await add({ ...base, channel: 'push', device: s.id, due_at: at, created_at: at });
  return subs.length > 0 || [...recorded].some((r) => r.startsWith(`${base.user_id}:push:`));
};

/** The text held back behind a critical alert's push: due the user's push minutes from now, not yet counted. */
export const heldText = (base: Pick<NewDelivery, 'farm_id' | 'alert_id' | 'user_id'>, now: Date, pushMinutes: number | undefined): NewDelivery => ({
  ...base,
  channel: 'sms',
  after_push: true,
  due_at: new Date(now.getTime() + (pushMinutes ?? DEFAULT_PUSH_MINUTES) * 60_000).toISOString(),
  created_at: now.toISOString(),
});

/**
 * Sends one push delivery to its browser: the payload (title, words, the vat's page, a signed
 * acknowledgement) encrypted to the subscription's keys. A subscription the user removed since is
 * skipped; one the push service says is gone (404, 410) is removed and the delivery skipped. Other
 * failures throw: the queue retries them like any send.
 */
export const sendPush = async (
  push: PushDeps,
  d: Delivery,
  n: StoredNotification,
  facts: MessageFacts,
  now: Date,
  options: { abortSignal?: AbortSignal },
  log: Logger,
): Promise<DeliveryOutcome> => {
  const at = now.toISOString();
  const sub = (await push.subscriptions.listPushSubscriptions(d.user_id)).find((s) => s.id === d.device);
  if (!sub) return { state: 'skipped', at, error: 'the browser unsubscribed from pushes' };
  const ack = await push.sender.signAck({ farm_id: d.farm_id, alert_id: d.alert_id, user_id: d.user_id, exp: Math.floor(now.getTime() / 1000) + ACK_VALID_SECONDS });
  const payload: PushPayload = { ...pushText(facts), tag: n._id, url: vatPagePath(d.farm_id, n.device.vat_number), ack, ack_url: push.sender.ackUrl };
  const result = await push.sender.send(
    sub.subscription,
    // The topic collapses a push still waiting at the push service with a resend of the same alert.
    { payload: JSON.stringify(payload), ttlSeconds: PUSH_TTL_SECONDS, urgency: urgencyOf(n.type), topic: topicOf(n._id) },
    options,
  );
  if (result.sent) return { state: 'sent', at };
  // Refused (a 4xx such as a bad request or a key the subscription was not made with): the same
  // push would be refused again, so it is a dead letter now, not after hours of retries.
  if (!result.gone) return { state: 'dead', at, error: result.reason };
  await push.subscriptions.deletePushSubscription(d.user_id, sub.id);
  log.info('push subscription gone; removed', { user: d.user_id, device: sub.id, status: result.status });
  return { state: 'skipped', at, error: `the push service says the subscription is gone (${result.status}); removed` };
};

/**
 * Failed attempts after which a push that keeps failing (the push service down, 5xx, no answer)
 * no longer holds its text back: tries at 0 s, 30 s and 90 s (RETRY_BACKOFF_MS), so a push
 * service outage costs the farmer about a minute and a half, not the whole push minutes. The
 * push keeps its own retries; if it arrives later too, the alert was seen twice, never missed.
 */
export const PUSH_ATTEMPTS_BEFORE_TEXT = 3;

/**
 * A push that failed (gone, unsubscribed, refused, dead, or failing PUSH_ATTEMPTS_BEFORE_TEXT
 * times) no longer holds the user's text back: unless another of the user's browsers took this
 * alert's push, or has yet to fail it that often, the held text is made due now. Answers the
 * text to send next (undefined: nothing held, still covered by another push, or moved by someone
 * else meanwhile, whose queue run then sends it).
 */
export const releaseHeldText = async (alerts: Pick<AlertsRepository, 'listDeliveries' | 'hastenDelivery'>, failed: Delivery, now: Date): Promise<Delivery | undefined> => {
  const mine = (await alerts.listDeliveries(failed.farm_id, failed.alert_id)).filter((d) => d.user_id === failed.user_id);
  const live = (d: Delivery) => d.state === 'sent' || ((d.state === 'pending' || d.state === 'sending') && d.attempts < PUSH_ATTEMPTS_BEFORE_TEXT);
  if (mine.some((d) => d.channel === 'push' && d.device !== failed.device && live(d))) return undefined;
  const held = mine.find((d) => d.channel === 'sms' && d.after_push && !d.escalation && d.state === 'pending');
  if (!held) return undefined;
  const at = now.toISOString();
  if (held.due_at <= at) return held;
  return (await alerts.hastenDelivery(held, at)) ? { ...held, due_at: at } : undefined;
};

/** RFC 8030 Topic: at most 32 base64url characters; the alert id's digest fits. */
const topicOf = (alertId: string): string => createHash('sha256').update(alertId).digest().subarray(0, 24).toString('base64url');
