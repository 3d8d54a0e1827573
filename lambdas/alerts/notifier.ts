import { channelsFor } from '../../shared/alerts/preferences';
import { localMonth } from '../../shared/time/local-day';
import { allowanceNote, emailBody, emailSubject, smsText, type MessageFacts } from '../../shared/alerts/messages';
import { smsTotalFor } from '../../shared/constants';
import type { Farm } from '../../shared/entities/farm';
import type { AlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import type { AlertsRepository, StoredNotification } from '../adapters/dynamodb/alerts-repository';
import type { FarmRepository } from '../adapters/dynamodb/farms-repository';
import type { AlertSender } from '../adapters/sns/alert-sender';
import { assertIsError } from '../lib/errors';
import type { Logger } from '../lib/logger';

export interface NotifierDeps {
  readonly farms: Pick<FarmRepository, 'getFarm' | 'getUser'>;
  readonly settings: Pick<AlertSettingsRepository, 'listUserIdsOfFarm' | 'getPreferencesOf'>;
  readonly alerts: Pick<AlertsRepository, 'markSent' | 'finishDelivery' | 'reserveSms' | 'releaseSms' | 'listPendingDelivery'>;
  readonly sender: AlertSender;
  readonly now: () => Date;
  readonly log: Logger;
  /** Waits between attempts; tests pass one that does not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Attempts per message within one delivery run; after that the sweep tries again (the alert stays pending). */
export const SEND_ATTEMPTS = 3;
const BACKOFF_MS = [250, 1_000];
/**
 * An alert raised from readings older than this (a device uploading a long backlog, the demo's
 * 48-hour backfill) is listed but not sent: by then the milk has been collected or dealt with,
 * and a burst of old texts would only use up the farm's allowance.
 */
export const SEND_WITHIN_MS = 12 * 60 * 60_000;
/** The sweep retries a delivery only once the run that raised it is surely over. */
export const RETRY_AFTER_MS = 2 * 60_000;

export type DeliveryResult = 'done' | 'pending';

/**
 * Sends one alert to every user linked to its farm, on the channels their preferences allow for
 * its type (farmer §3 Alert setting, all on by default):
 *  - a text only to a verified phone (phone_verify 2), and only while the farm's monthly text
 *    allowance (§9 SMS totals) lasts; a user who wants a text but cannot get one gets the email
 *    instead, saying why when it is the allowance, so an alert is never lost for want of a text;
 *  - never to a showroom account (is_demo);
 *  - each channel sent is recorded on the notification, so a retry (here or from the sweep)
 *    never sends it twice; the notification stays pending until every channel went out.
 */
export const makeNotifier = (deps: NotifierDeps) => {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const attempt = async (what: string, send: () => Promise<void>): Promise<boolean> => {
    for (let i = 0; i < SEND_ATTEMPTS; i += 1) {
      try {
        await send();
        return true;
      } catch (err) {
        assertIsError(err);
        deps.log.warn('alert send failed', { what, attempt: i + 1, err });
        if (i < SEND_ATTEMPTS - 1) await sleep(BACKOFF_MS[i] ?? 1_000);
      }
    }
    return false;
  };

  const deliver = async (n: StoredNotification, knownFarm?: Farm): Promise<DeliveryResult> => {
    if (deps.now().getTime() - Date.parse(n.data.published_at) > SEND_WITHIN_MS) {
      deps.log.info('alert from old readings listed, not sent', { alert: n._id });
      await deps.alerts.finishDelivery(n.farm_id, n._id);
      return 'done';
    }
    const farm = knownFarm ?? (await deps.farms.getFarm(n.farm_id));
    if (!farm) {
      deps.log.error('alert of an unknown farm', { farm: n.farm_id, alert: n._id });
      return 'pending';
    }
    const facts: MessageFacts = {
      type: n.type,
      farmName: farm.name ?? farm.fonterra_id,
      vatNumber: n.device.vat_number,
      data: n.data,
      timezone: farm.timezone,
      ...(n.detail ? { detail: n.detail } : {}),
    };
    const userIds = await deps.settings.listUserIdsOfFarm(farm._id);
    const prefs = await deps.settings.getPreferencesOf(userIds);
    const sent = new Set(n.delivered);
    const total = smsTotalFor(farm.package);
    const month = localMonth(deps.now(), farm.timezone);
    let complete = true;

    for (const userId of userIds) {
      const user = await deps.farms.getUser(userId);
      const p = prefs.get(userId);
      // A showroom account (is_demo, farmer §6) looks at real farms but is nobody's to alert: no
      // messages, and none of the farm's text allowance.
      if (!user || !p || user.is_demo) continue;
      const wants = channelsFor(p, n.type);
      let emailNote: string | undefined;
      let needEmail = wants.email;

      const smsKey = `${userId}:sms`;
      if (wants.text && !sent.has(smsKey)) {
        if (user.phone_verify !== 2 || !user.phone) {
          // No verified phone, no text (issue 6): the email carries the alert instead.
          needEmail = true;
        } else if (!(await deps.alerts.reserveSms(farm._id, month, total))) {
          needEmail = true;
          emailNote = allowanceNote(total);
        } else if (await attempt(`sms ${n._id} ${userId}`, () => deps.sender.sms(user.phone, smsText(facts)))) {
          await deps.alerts.markSent(farm._id, n._id, smsKey);
        } else {
          await deps.alerts.releaseSms(farm._id, month);
          complete = false;
        }
      }

      const emailKey = `${userId}:email`;
      if (needEmail && !sent.has(emailKey)) {
        if (await attempt(`email ${n._id} ${userId}`, () => deps.sender.email({ _id: userId, email: user.email }, emailSubject(facts), emailBody(facts, emailNote)))) {
          await deps.alerts.markSent(farm._id, n._id, emailKey);
        } else {
          complete = false;
        }
      }
    }
    if (!complete) return 'pending';
    await deps.alerts.finishDelivery(farm._id, n._id);
    return 'done';
  };

  /** Retries every alert whose delivery did not finish (run by the sweep). */
  const retryPending = async (): Promise<number> => {
    const pending = await deps.alerts.listPendingDelivery();
    let done = 0;
    // A fresh alert is still being delivered by the run that raised it: leave it to that run.
    const settled = deps.now().getTime() - RETRY_AFTER_MS;
    for (const n of pending) if (Date.parse(n.created_at) <= settled && (await deliver(n)) === 'done') done += 1;
    return done;
  };

  return { deliver, retryPending };
};
export type Notifier = ReturnType<typeof makeNotifier>;
