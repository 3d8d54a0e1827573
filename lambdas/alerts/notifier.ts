import { randomUUID } from 'node:crypto';
import { DEFAULT_ESCALATION, escalationSteps, isCritical, type EscalationStep } from '../../shared/alerts/escalation';
import { channelsFor } from '../../shared/alerts/preferences';
import { NOTIFICATION_STATUS } from '../../shared/alerts/types';
import { localMonth } from '../../shared/time/local-day';
import { allowanceNote, emailBody, emailSubject, smsText, type MessageFacts } from '../../shared/alerts/messages';
import { smsTotalFor } from '../../shared/constants';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import type { AlertSettingsRepository } from '../ports/alert-settings';
import { smsHolderOf, type AlertsRepository, type Delivery, type DeliveryChannel, type DeliveryOutcome, type StoredNotification } from '../ports/alerts';
import type { FarmRepository } from '../ports/farms';
import { alertRecipientOf } from '../ports/alert-email';
import type { AlertSender } from '../ports/alert-email';
import { assertIsError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { metricFields } from '../lib/metrics';
import { DELIVERY_DEAD_LETTERS } from '../ports/metric-names';
import { heldText, planPushes, sendPush, type PushDeps } from './push-delivery';

export interface NotifierDeps {
  readonly farms: Pick<FarmRepository, 'getFarm' | 'getUser'>;
  readonly settings: Pick<AlertSettingsRepository, 'listUserIdsOfFarm' | 'getPreferencesOf'> &
    Partial<Pick<AlertSettingsRepository, 'getEscalationOf' | 'listOrganizationUserIdsOfFarm'>>;
  readonly alerts: Pick<
    AlertsRepository,
    'get' | 'finishDelivery' | 'listPendingDelivery' | 'addDelivery' | 'listDeliveries' | 'listDueDeliveries' | 'claimDelivery' | 'settleDelivery' | 'reserveSms' | 'releaseSms' | 'saveSms'
  >;
  readonly sender: AlertSender;
  /** Web Push (decisions 090-092): the users' browsers' subscriptions and the VAPID sender. */
  readonly push?: PushDeps;
  readonly now: () => Date;
  readonly log: Logger;
  /** A claim's token; tests may pass their own. */
  readonly newLease?: () => string;
}

/**
 * An alert raised from readings older than this (a device uploading a long backlog, the demo's
 * 48-hour backfill) is listed but not sent: by then the milk has been collected or dealt with,
 * and a burst of old texts would only use up the farm's allowance. Its notification says so
 * (`delivery_state` 'too_old') and it gets no deliveries.
 */
const SEND_WITHIN_MS = 12 * 60 * 60_000;
/** How long a claim holds a delivery: longer than a send may take (SEND_TIMEOUT_MS), so two senders never overlap. */
export const LEASE_MS = 60_000;
/** Each SNS call of a send is aborted after this. */
const SEND_TIMEOUT_MS = 20_000;
/**
 * Waits before the 2nd, 3rd, … attempt of a delivery; after the last attempt fails the delivery is
 * a dead letter (about 2 h 20 min after the first try, well inside SNS outages and throttling).
 */
export const RETRY_BACKOFF_MS = [30_000, 60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 20 * 60_000, 40 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_MS.length + 1;
/** Deliveries one queue run takes at most, and the time it may spend claiming more (the sweep has 50 s). */
const QUEUE_BATCH = 500;
const QUEUE_BUDGET_MS = 20_000;

type DeliveryResult = 'done' | 'pending';
const other = (c: DeliveryChannel): DeliveryChannel => (c === 'sms' ? 'email' : 'sms');
const hasVerifiedPhone = (u: User): boolean => u.phone_verify === 2 && Boolean(u.phone);

/**
 * Alert delivery as a queue. An alert is first *planned*: one delivery record per
 * (alert, user, channel) the user's preferences ask for (farmer §3 Alert setting, all on by
 * default), written conditionally so planning twice records nothing twice:
 *  - a text only to a verified phone (phone_verify 2), and only while the farm's monthly text
 *    allowance (§9 SMS totals) lasts; a user who wants a text but cannot get one gets the email
 *    instead, saying why when it is the allowance;
 *  - never to a showroom account (is_demo).
 * Then each delivery is *claimed* (a conditional write taking a lease), *sent*, and *marked* while
 * the lease holds: a crash resends at most the one delivery in flight, after its lease ends, and
 * two senders never send the same one. A failed send is due again after a backoff; after
 * MAX_ATTEMPTS it is a dead letter (logged with the DeliveryDeadLetters metric) and the other
 * channel is tried instead, as is a text to a phone no longer verified and an email to an address
 * not confirmed (which SNS would drop unseen, so it is never marked sent).
 */
export const makeNotifier = (deps: NotifierDeps) => {
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

  /** Escalation deliveries are steps of their own; the first delivery of a channel is the one without a step. */
  const firstOnly = (ds: readonly Delivery[]) => ds.filter((d) => !d.escalation);

  /**
   * Takes the delivery's text from the farm's allowance, then records the delivery. The text is
   * named after the delivery, so a run that died between the two takes the same text again (not a
   * second one), and a delivery another run recorded already holds it: it is not given back.
   */
  const addSms = async (farm: Farm, alertId: string, userId: string, extra: { fallback?: boolean; escalation?: 1 | 2; escalation_due?: string } = {}): Promise<'added' | 'exists' | 'allowance'> => {
    const month = localMonth(deps.now(), farm.timezone);
    const holder = smsHolderOf({ alert_id: alertId, user_id: userId, ...(extra.escalation ? { escalation: extra.escalation } : {}) });
    if (!(await alerts.reserveSms(farm._id, month, smsTotalFor(farm.package), holder))) return 'allowance';
    const at = deps.now().toISOString();
    if (await alerts.addDelivery({ farm_id: farm._id, alert_id: alertId, user_id: userId, channel: 'sms', due_at: at, created_at: at, sms_month: month, ...extra })) return 'added';
    return 'exists';
  };
  const addEmail = (farm: Farm, alertId: string, userId: string, extra: { note?: string; fallback?: boolean; escalation?: 1 | 2; escalation_due?: string; due_at?: string } = {}) => {
    const at = deps.now().toISOString();
    return alerts.addDelivery({ farm_id: farm._id, alert_id: alertId, user_id: userId, channel: 'email', due_at: at, created_at: at, ...extra });
  };

  /** Records the alert's deliveries (each at most once); false when it is not to be sent or cannot be planned yet. */
  const plan = async (n: StoredNotification, knownFarm?: Farm): Promise<Farm | undefined> => {
    if (deps.now().getTime() - Date.parse(n.data.published_at) > SEND_WITHIN_MS) {
      log.info('alert from old readings listed, not sent', { alert: n._id });
      await alerts.finishDelivery(n.farm_id, n._id, 'too_old');
      return undefined;
    }
    const farm = knownFarm ?? (await deps.farms.getFarm(n.farm_id));
    if (!farm) {
      log.error('alert of an unknown farm', { farm: n.farm_id, alert: n._id });
      return undefined;
    }
    const deliveries = await alerts.listDeliveries(farm._id, n._id);
    const recorded = new Set(firstOnly(deliveries).map((d) => (d.channel === 'push' ? `${d.user_id}:push:${d.device}` : `${d.user_id}:${d.channel}`)));
    const userIds = await deps.settings.listUserIdsOfFarm(farm._id);
    const prefs = await deps.settings.getPreferencesOf(userIds);
    const critical = isCritical(n.type);
    // A critical alert's text waits behind its push for the user's push minutes (kept with their escalation setting).
    const pushMinutes = deps.push && critical && deps.settings.getEscalationOf ? await deps.settings.getEscalationOf(userIds) : undefined;
    for (const userId of userIds) {
      const user = await deps.farms.getUser(userId);
      const p = prefs.get(userId);
      // A showroom account (is_demo, farmer §6) looks at real farms but is nobody's to alert: no
      // messages, and none of the farm's text allowance.
      if (!user || !p || user.is_demo) continue;
      const wants = channelsFor(p, n.type);
      const base = { farm_id: farm._id, alert_id: n._id, user_id: userId };
      const pushed = deps.push && wants.push ? await planPushes(deps.push, (d) => alerts.addDelivery(d), base, recorded, deps.now().toISOString()) : false;
      let needEmail = wants.email;
      let note: string | undefined;
      if (wants.text && !recorded.has(`${userId}:sms`)) {
        // No verified phone, no text: the email carries the alert instead.
        if (!hasVerifiedPhone(user)) needEmail = true;
        // Push first: the text goes only if the push is not opened or acknowledged in time (counted then).
        else if (pushed && critical) await alerts.addDelivery(heldText(base, deps.now(), pushMinutes?.get(userId)?.push_minutes));
        else if ((await addSms(farm, n._id, userId)) === 'allowance') {
          needEmail = true;
          note = allowanceNote(smsTotalFor(farm.package));
        }
      }
      if (needEmail && !recorded.has(`${userId}:email`)) await addEmail(farm, n._id, userId, note ? { note } : {});
    }
    if (critical) await planEscalation(n, farm, userIds, deliveries);
    await alerts.finishDelivery(farm._id, n._id);
    return farm;
  };

  /**
   * The alert's escalation steps as things stand now (escalationSteps on the farm's users, its
   * organizations' users and their settings): at planning, and again for a step when it is due.
   */
  const stepsNow = async (n: StoredNotification, farm: Farm, farmUsers: readonly string[]) => {
    const { getEscalationOf, listOrganizationUserIdsOfFarm } = deps.settings;
    if (!getEscalationOf) return [];
    const orgUsers = listOrganizationUserIdsOfFarm ? await listOrganizationUserIdsOfFarm(farm._id) : [];
    const settings = await getEscalationOf([...farmUsers, ...orgUsers]);
    return escalationSteps(n.type, n.created_at, farmUsers, orgUsers, (u) => settings.get(u) ?? DEFAULT_ESCALATION);
  };

  /**
   * The escalation steps of a critical alert (shared/alerts/escalation.ts), planned with its first
   * deliveries as deliveries due later: by text to a verified phone while the allowance lasts,
   * else by email (saying why). A step whose alert is read by then is dropped when it comes due.
   * Planned again whenever one of its steps comes due (`currentStep`): steps of people who joined
   * since are added then.
   */
  const planEscalation = async (n: StoredNotification, farm: Farm, farmUsers: readonly string[], known: readonly Delivery[], current?: readonly EscalationStep[]) => {
    const steps = current ?? (await stepsNow(n, farm, farmUsers));
    const planned = new Set(known.filter((d) => d.escalation).map((d) => `${d.user_id}:${d.escalation}`));
    for (const step of steps) {
      if (planned.has(`${step.user_id}:${step.step}`)) continue;
      const user = await deps.farms.getUser(step.user_id);
      if (!user || user.is_demo) continue;
      const extra = { escalation: step.step, due_at: step.due_at, escalation_due: step.due_at };
      // A text to a verified phone (counted when it is sent), else the email.
      if (hasVerifiedPhone(user)) await alerts.addDelivery({ farm_id: farm._id, alert_id: n._id, user_id: step.user_id, channel: 'sms', created_at: deps.now().toISOString(), ...extra });
      else await addEmail(farm, n._id, step.user_id, extra);
    }
  };

  /**
   * A planned escalation step as things stand when it comes due (stepsNow): undefined when it is no
   * longer this person's. The alert's steps are planned again at that moment, so someone who joined
   * the farm or opted in since the alert came gets their step too (due at once when its time has passed).
   */
  const currentStep = async (n: StoredNotification, farm: Farm, d: Delivery): Promise<EscalationStep | undefined> => {
    const farmUsers = await deps.settings.listUserIdsOfFarm(farm._id);
    const steps = await stepsNow(n, farm, farmUsers);
    await planEscalation(n, farm, farmUsers, await alerts.listDeliveries(farm._id, n._id), steps);
    return steps.find((s) => s.user_id === d.user_id && s.step === d.escalation);
  };

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
      // A push has no other channel of its own: a critical alert's text waits behind it anyway.
      const next = d.channel === 'push' ? undefined : await fallBack(d, farm, user);
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
        await settle(outcome);
        return { result: outcome.state === 'sent' ? 'sent' : 'settled' };
      }
      if (d.channel === 'sms') {
        if (!recipient.phone) return await failedForGood('skipped', 'the phone is no longer verified');
        sent = await deps.sender.sms({ ...recipient, phone: recipient.phone }, smsText(facts), options);
      } else {
        sent = await deps.sender.email(recipient, emailSubject(facts), emailBody(facts, d.note), options);
      }
      if (!sent.sent) return await failedForGood('unconfirmed', 'the alert email address is not confirmed');
      await settle({ state: 'sent', at: deps.now().toISOString(), ...(sent.messageId ? { message_id: sent.messageId } : {}) });
      return { result: 'sent' };
    } catch (err) {
      assertIsError(err);
      if (d.attempts >= MAX_ATTEMPTS) return failedForGood('dead', err.message);
      const wait = RETRY_BACKOFF_MS[Math.min(d.attempts, RETRY_BACKOFF_MS.length) - 1] ?? LEASE_MS;
      log.warn('alert send failed; due again later', { alert: d.alert_id, user: d.user_id, channel: d.channel, attempt: d.attempts, err });
      // A text counted at this attempt (an escalation step) is counted again at the next.
      if (smsMonth && !d.sms_month) await giveBack(farm);
      await settle({ state: 'pending', due_at: new Date(deps.now().getTime() + wait).toISOString(), error: err.message });
      return { result: 'retry' };
    }
  };

  /** Sends a delivery and, when it failed for good, the fallback it made. */
  const sendWithFallback = async (d: Delivery): Promise<number> => {
    let sent = 0;
    let next: Delivery | undefined = d;
    while (next) {
      const r = await sendOne(next);
      if (r.result === 'sent') sent += 1;
      next = r.next;
    }
    return sent;
  };

  /**
   * Delivers a newly raised alert (the run that raised it): plans it and sends what is due.
   * 'done' when every delivery is settled; otherwise the queue (the sweep) has the rest.
   */
  const deliver = async (n: StoredNotification, knownFarm?: Farm): Promise<DeliveryResult> => {
    const farm = await plan(n, knownFarm);
    if (!farm) return 'done';
    const now = deps.now().toISOString();
    for (const d of await alerts.listDeliveries(farm._id, n._id)) if ((d.state === 'pending' || d.state === 'sending') && d.due_at <= now) await sendWithFallback(d);
    return (await alerts.listDeliveries(farm._id, n._id)).every((d) => d.state !== 'pending' && d.state !== 'sending') ? 'done' : 'pending';
  };

  /**
   * The queue run (the sweep, first thing): plans every notification not yet planned, then sends
   * the due deliveries from their own index, oldest first, so deliveries never wait behind the
   * fleet. Answers how many were sent.
   */
  const retryPending = async (): Promise<number> => {
    for (const n of await alerts.listPendingDelivery()) {
      try {
        await plan(n);
      } catch (err) {
        assertIsError(err);
        log.error('alert not planned; the next sweep tries again', { alert: n._id, err });
      }
    }
    const started = performance.now();
    let sent = 0;
    for (const d of await alerts.listDueDeliveries(deps.now(), QUEUE_BATCH)) {
      if (performance.now() - started > QUEUE_BUDGET_MS) break;
      try {
        sent += await sendWithFallback(d);
      } catch (err) {
        // A store failure: the claim's lease runs out and the next run takes the delivery again.
        assertIsError(err);
        log.error('alert delivery failed in the queue run', { alert: d.alert_id, user: d.user_id, channel: d.channel, err });
      }
    }
    return sent;
  };

  return { deliver, retryPending };
};
export type Notifier = ReturnType<typeof makeNotifier>;
