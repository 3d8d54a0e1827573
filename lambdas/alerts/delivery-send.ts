import { randomUUID } from 'node:crypto';
import { NOTIFICATION_STATUS } from '../../shared/alerts/types';
import { localMonth } from '../../shared/time/local-day';
import { emailBody, emailSubject, smsText, type MessageFacts } from '../../shared/alerts/messages';
import { smsTotalFor } from '../../shared/constants';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import { smsHolderOf, type Delivery, type DeliveryChannel, type DeliveryOutcome, type StoredNotification } from '../ports/alerts';
import { alertRecipientOf } from '../ports/alert-email';
import type { AlertSender } from '../ports/alert-email';
import { assertIsError } from '../lib/errors';
import { countSent, DELIVERY_DEAD_LETTERS, metricFields, recordAlertLatency } from '../lib/metrics';
import { PUSH_ATTEMPTS_BEFORE_TEXT, releaseHeldText, sendPush } from './push-delivery';
import { LEASE_MS, MAX_ATTEMPTS, RETRY_BACKOFF_MS, SEND_TIMEOUT_MS, type NotifierDeps } from './notifier-deps';
import { hasVerifiedPhone, type DeliveryPlanner } from './delivery-plan';

const other = (c: DeliveryChannel): DeliveryChannel => (c === 'sms' ? 'email' : 'sms');

/**
 * The sending half of the notifier (makeNotifier): claims a due delivery, sends it, marks it, and
 * on a failure for good plans the other channel through the planner.
 */
export const makeDeliverySender = (deps: NotifierDeps, { addSms, addEmail, currentStep }: Pick<DeliveryPlanner, 'addSms' | 'addEmail' | 'currentStep'>) => {
  const newLease = deps.newLease ?? randomUUID;
  const { alerts, log } = deps;

  const factsOf = (n: StoredNotification, farm: Farm): MessageFacts => ({
    type: n.type,
    farmName: farm.name ?? farm.fonterra_id,
    vatNumber: n.device.vat_number,
    data: n.data,
    timezone: farm.timezone,
    ...(n.detail ? { detail: n.detail } : {}),
  });

  const deadLetter = (d: Delivery, error: string) =>
    log.error('alert delivery dead-lettered', { alert: d.alert_id, farm: d.farm_id, user: d.user_id, channel: d.channel, attempts: d.attempts, error, ...metricFields(DELIVERY_DEAD_LETTERS, 1) });

  /** The other channel, when this one failed for good (and the user does not have the alert that way already). */
  const fallBack = async (d: Delivery, farm: Farm, user: User): Promise<Delivery | undefined> => {
    const to = other(d.channel);
    const extra = { fallback: true, ...(d.escalation ? { escalation: d.escalation } : {}), ...(d.escalation_due ? { escalation_due: d.escalation_due } : {}) };
    const added = to === 'email' ? await addEmail(farm, d.alert_id, d.user_id, extra) : hasVerifiedPhone(user) && (await addSms(farm, d.alert_id, d.user_id, extra)) === 'added';
    if (!added) return undefined;
    log.info('alert delivery falls back to the other channel', { alert: d.alert_id, user: d.user_id, from: d.channel, to });
    return (await alerts.listDeliveries(d.farm_id, d.alert_id)).find((x) => x.user_id === d.user_id && x.channel === to && x.escalation === d.escalation);
  };

  /**
   * Claims, sends and marks one delivery. Answers the fallback delivery to send next, if any.
   * 'lost': another sender holds it, or it is not due.
   */
  const sendOne = async (due: Delivery): Promise<{ result: 'sent' | 'retry' | 'settled' | 'lost'; next?: Delivery }> => {
    const lease = newLease();
    const now = deps.now();
    const d = await alerts.claimDelivery(due, lease, now, new Date(now.getTime() + LEASE_MS));
    if (!d) return { result: 'lost' };
    const settle = async (outcome: DeliveryOutcome) => {
      if (!(await alerts.settleDelivery(d, lease, outcome))) log.warn('delivery lease lost before it was marked', { alert: d.alert_id, user: d.user_id, channel: d.channel });
    };
    // The month this text is counted in: at planning, or (an escalation step) when it is sent.
    let smsMonth = d.sms_month;
    const giveBack = async (farm: Farm) => {
      if (d.channel === 'sms' && smsMonth) await alerts.releaseSms(farm._id, smsMonth, smsHolderOf(d));
    };
    const [n, farm, user] = await Promise.all([alerts.get(d.farm_id, d.alert_id), deps.farms.getFarm(d.farm_id), deps.farms.getUser(d.user_id)]);
    if (!n || !farm || !user || user.is_demo) {
      await settle({ state: 'skipped', at: deps.now().toISOString(), error: 'the alert, farm or user no longer exists' });
      if (farm) await giveBack(farm);
      return { result: 'settled' };
    }
    if (d.escalation && n.status !== NOTIFICATION_STATUS.unread) {
      // Read (or archived) before the step came due: nobody needs it again.
      await settle({ state: 'skipped', at: deps.now().toISOString(), error: 'the alert was read before the escalation was due' });
      await giveBack(farm);
      return { result: 'settled' };
    }
    if (d.escalation) {
      const step = await currentStep(n, farm, d);
      if (!step) {
        // Planned when the alert came; since then the person left the farm or its organizations, or turned escalation off.
        await settle({ state: 'skipped', at: deps.now().toISOString(), error: 'the user no longer has this escalation (left the farm or organization, or turned it off)' });
        await giveBack(farm);
        return { result: 'settled' };
      }
      if (step.due_at > now.toISOString()) {
        // The person lengthened their minutes since: the step waits for its new time.
        await settle({ state: 'pending', due_at: step.due_at, escalation_due: step.due_at, error: 'the escalation minutes were changed; due at the new time' });
        return { result: 'settled' };
      }
    }
    if (d.after_push && n.status !== NOTIFICATION_STATUS.unread) {
      // The push was opened or acknowledged (the alert is read): the text is not needed, nor counted.
      await settle({ state: 'skipped', at: deps.now().toISOString(), error: 'the push was opened or acknowledged before the text was due' });
      await alerts.saveSms(farm._id, localMonth(deps.now(), farm.timezone), smsHolderOf(d));
      return { result: 'settled' };
    }
    const facts = { ...factsOf(n, farm), ...(d.escalation ? { escalation: d.escalation } : {}) };
    const options = { abortSignal: AbortSignal.timeout(SEND_TIMEOUT_MS) };
    const failedForGood = async (state: 'dead' | 'unconfirmed' | 'skipped', error: string) => {
      await settle({ state, at: deps.now().toISOString(), error });
      if (state === 'dead') deadLetter(d, error);
      else log.warn('alert delivery not possible on this channel', { alert: d.alert_id, user: d.user_id, channel: d.channel, state, error });
      await giveBack(farm);
      // A push has no other channel of its own: the text held behind it (a critical alert's) goes now instead.
      const next = d.channel === 'push' ? await releaseHeldText(alerts, d, deps.now()) : await fallBack(d, farm, user);
      return { result: 'settled' as const, ...(next ? { next } : {}) };
    };
    if ((d.escalation || d.after_push) && d.channel === 'sms' && !smsMonth) {
      // An escalation text, or one held behind a push, counts against the allowance when it goes,
      // not when it is planned (most are never sent: the alert is read first). Used up: the email instead.
      const month = localMonth(deps.now(), farm.timezone);
      const total = smsTotalFor(farm.package);
      if (!(await alerts.reserveSms(farm._id, month, total, smsHolderOf(d)))) return failedForGood('skipped', `the farm's ${total} texts of this month are used up`);
      smsMonth = month;
    }
    try {
      const recipient = alertRecipientOf(user);
      let sent: Awaited<ReturnType<AlertSender['email']>>;
      if (d.channel === 'push') {
        if (!deps.push) return await failedForGood('skipped', 'this function has no push sender');
        const outcome = await sendPush(deps.push, d, n, facts, deps.now(), options, log);
        if (outcome.state !== 'sent') return await failedForGood(outcome.state === 'dead' ? 'dead' : 'skipped', outcome.error);
        await settle(outcome);
        countSent('push');
        if (!d.escalation) recordAlertLatency(n.data.published_at, deps.now());
        return { result: 'sent' };
      }
      if (d.channel === 'sms') {
        if (!recipient.phone) return await failedForGood('skipped', 'the phone is no longer verified');
        sent = await deps.sender.sms({ ...recipient, phone: recipient.phone }, smsText(facts), options);
      } else {
        sent = await deps.sender.email(recipient, emailSubject(facts), emailBody(facts, d.note), options);
      }
      if (!sent.sent) return await failedForGood('unconfirmed', 'the alert email address is not confirmed');
      const sentAt = deps.now();
      await settle({ state: 'sent', at: sentAt.toISOString(), ...(sent.messageId ? { message_id: sent.messageId } : {}) });
      countSent(d.channel);
      // An escalation step, and a text held behind a push, wait on purpose: the latency is the first delivery's.
      if (!d.escalation && !d.after_push) recordAlertLatency(n.data.published_at, sentAt);
      return { result: 'sent' };
    } catch (err) {
      assertIsError(err);
      if (d.attempts >= MAX_ATTEMPTS) return failedForGood('dead', err.message);
      const wait = RETRY_BACKOFF_MS[Math.min(d.attempts, RETRY_BACKOFF_MS.length) - 1] ?? LEASE_MS;
      log.warn('alert send failed; due again later', { alert: d.alert_id, user: d.user_id, channel: d.channel, attempt: d.attempts, err });
      // A text counted at this attempt (an escalation step) is counted again at the next.
      if (smsMonth && !d.sms_month) await giveBack(farm);
      await settle({ state: 'pending', due_at: new Date(deps.now().getTime() + wait).toISOString(), error: err.message });
      // A push still failing after a few tries no longer holds the text back; it keeps its own retries.
      const held = d.channel === 'push' && d.attempts >= PUSH_ATTEMPTS_BEFORE_TEXT ? await releaseHeldText(alerts, d, deps.now()) : undefined;
      return { result: 'retry', ...(held ? { next: held } : {}) };
    }
  };

  return sendOne;
};
