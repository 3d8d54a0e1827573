import { DEFAULT_ESCALATION, escalationSteps, isCritical, type EscalationStep } from '../../shared/alerts/escalation';
import { channelsFor } from '../../shared/alerts/preferences';
import { localMonth } from '../../shared/time/local-day';
import { allowanceNote } from '../../shared/alerts/messages';
import { smsTotalFor } from '../../shared/constants';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import { smsHolderOf, type Delivery, type StoredNotification } from '../ports/alerts';
import { heldText, planPushes } from './push-delivery';
import { SEND_WITHIN_MS, type NotifierDeps } from './notifier-deps';

export const hasVerifiedPhone = (u: User): boolean => u.phone_verify === 2 && Boolean(u.phone);

/**
 * The planning half of the notifier (makeNotifier): an alert's deliveries per user and channel,
 * the texts taken from the farm's allowance, and a critical alert's escalation steps.
 */
export const makeDeliveryPlanner = (deps: NotifierDeps) => {
  const { alerts, log } = deps;

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

  return { addSms, addEmail, plan, currentStep };
};
export type DeliveryPlanner = ReturnType<typeof makeDeliveryPlanner>;
