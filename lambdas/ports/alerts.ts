import type { AlertEngineState } from '../../shared/alerts/engine-state';
import type { Notification, NotificationStatus, NotificationType, RaisedAlert } from '../../shared/alerts/types';

/** The engine's stored state of one device, with its outbox of alerts not yet written. */
export interface EngineRecord {
  readonly n: number;
  readonly farm_id: string;
  readonly state: AlertEngineState;
  /** Raised alerts committed with the state but not yet written as notifications (crash-safe outbox). */
  readonly outbox: readonly OutboxAlert[];
}

/**
 * One write the engine committed but has not yet applied, in order: raise an alert, or clear an
 * open condition (so a clear is never lost either: a stale open item would block the type).
 */
export type OutboxAlert =
  | {
      readonly alert: RaisedAlert;
      /** The type stays open until its condition clears (not a one-shot event). */
      readonly open: boolean;
    }
  | { readonly clear: NotificationType };

/** A notification with its delivery bookkeeping (never shown to clients). */
export interface StoredNotification extends Notification {
  /**
   * 'pending' until its deliveries are recorded in the queue (Delivery), then 'done'; 'too_old':
   * raised from readings too old to send (notifier SEND_WITHIN_MS), listed and not sent.
   */
  readonly delivery_state: 'pending' | 'done' | 'too_old';
  /** Channels sent before deliveries were queue records, as `<userId>:<sms|email>`; new alerts keep it empty. */
  readonly delivered: readonly string[];
}

/** A text, an email, or a push to one browser of the user (Web Push; `device` names the subscription). */
export type DeliveryChannel = 'sms' | 'email' | 'push';

/**
 * A delivery's state: `pending` (due at `due_at`), `sending` (claimed by one sender until
 * `due_at`, its lease), or settled: `sent`, `dead` (failed for good after every attempt),
 * `unconfirmed` (an email route whose address is not confirmed: SNS would drop it), `skipped`
 * (a text the farm's allowance no longer covers).
 */
type DeliveryState = 'pending' | 'sending' | 'sent' | 'dead' | 'unconfirmed' | 'skipped';

/** One (alert, recipient, channel) delivery: the unit the notifier claims, sends and marks. */
export interface Delivery {
  readonly farm_id: string;
  readonly alert_id: string;
  readonly user_id: string;
  readonly channel: DeliveryChannel;
  readonly state: DeliveryState;
  /** Claims so far (each claim is one send attempt). */
  readonly attempts: number;
  /** Pending: when it may be tried; sending: when the claim's lease ends. */
  readonly due_at: string;
  readonly created_at: string;
  /** The claim holder's token while sending. */
  readonly lease?: string;
  /** A line added to the email (the farm's text allowance is used up). */
  readonly note?: string;
  /** Made because the other channel failed for good. */
  readonly fallback?: boolean;
  /** The text was counted against the farm's monthly allowance in this month (released if it is never sent). */
  readonly sms_month?: string;
  readonly last_error?: string;
  readonly settled_at?: string;
  readonly message_id?: string;
  /**
   * An escalation step (shared/alerts/escalation.ts): 1 the alert again to a farm user,
   * 2 to an opted-in user of the farm's organization; absent for the alert's first delivery.
   */
  readonly escalation?: 1 | 2;
  /** When the escalation step was due (due_at moves with claims and retries). */
  readonly escalation_due?: string;
  /** A push: the subscription (one browser of the user) it goes to; each is a delivery of its own. */
  readonly device?: string;
  /**
   * A critical alert's text held back behind its push (decision 092): due the user's push minutes
   * after planning, skipped when the alert was read by then (the push opened or acknowledged),
   * counted against the allowance only when it is sent.
   */
  readonly after_push?: boolean;
}

export type NewDelivery = Pick<Delivery, 'farm_id' | 'alert_id' | 'user_id' | 'channel' | 'due_at' | 'created_at'> &
  Partial<Pick<Delivery, 'note' | 'fallback' | 'sms_month' | 'escalation' | 'escalation_due' | 'device' | 'after_push'>>;

/** How a claimed delivery ended: sent, due again later, or settled unsent. */
export type DeliveryOutcome =
  | { readonly state: 'sent'; readonly at: string; readonly message_id?: string }
  /** Due again later; `escalation_due` moves an escalation step's planned time with it. */
  | { readonly state: 'pending'; readonly due_at: string; readonly error: string; readonly escalation_due?: string }
  | { readonly state: 'dead' | 'unconfirmed' | 'skipped'; readonly at: string; readonly error: string };

/** The alert engine's state per device (`DEVICE#<id>` / `ENGINE`). */
export interface AlertEngineStore {
  getEngine(deviceId: string): Promise<EngineRecord | undefined>;
  /** Commits the engine's state if nobody else did since `expectedN` (undefined: first commit). */
  putEngine(deviceId: string, record: EngineRecord, expectedN: number | undefined): Promise<boolean>;
  /** Every device the engine has seen, for the sweep. */
  listEngineDevices(): Promise<{ device_id: string; farm_id: string }[]>;
}

/** A farm's notifications (`N#<alert>`), their open conditions (`OPEN#…`) and the index of those not yet delivered. */
export interface NotificationStore {
  /**
   * Writes a raised alert: the open-condition item (for types that stay open) and the
   * notification, each conditionally. 'created': written now (deliver it); 'exists': written
   * before (its delivery is the pending index's business); 'blocked': this condition is already
   * open under another alert, nothing was written.
   */
  raise(notification: Notification, open: boolean): Promise<'created' | 'exists' | 'blocked'>;
  /** The condition cleared: the type may be raised again. */
  clearOpen(farmId: string, deviceId: string, type: number): Promise<void>;
  list(farmId: string): Promise<StoredNotification[]>;
  /** The farm's notifications raised from readings at or after `from` (ISO), oldest first: one key-range query. */
  listSince(farmId: string, from: string): Promise<StoredNotification[]>;
  /**
   * One page of the farm's notifications, newest first: the first `limit` that `keep` accepts
   * after the notification `after` (its id; from the newest without one).
   */
  listPage(farmId: string, page: { readonly after?: string; readonly limit: number; readonly keep: (n: StoredNotification) => boolean }): Promise<StoredNotification[]>;
  get(farmId: string, alertId: string): Promise<StoredNotification | undefined>;
  /** Sets the status; `unlessArchived` leaves an archived one as it is (farmer §2.8). */
  /** Archiving (3) also sets the item's expiry: ARCHIVED_NOTIFICATION_RETENTION_DAYS after the first archive, `at`. */
  setStatus(farmId: string, alertId: string, status: NotificationStatus, unlessArchived: boolean, at: Date): Promise<StoredNotification | undefined>;
  /** Notifications whose deliveries are not all recorded yet (the sweep plans them). */
  listPendingDelivery(): Promise<StoredNotification[]>;
  /** Every delivery of the notification is recorded in the queue: it leaves the pending index. */
  finishDelivery(farmId: string, alertId: string, state?: 'done' | 'too_old'): Promise<void>;
}

/** The delivery queue: one item per alert, recipient and channel (`D#<alert>#…`), with its due and dead-letter indexes. */
export interface DeliveryQueue {
  /** Records a delivery unless it exists (same alert, user and channel): true when written now. */
  addDelivery(d: NewDelivery): Promise<boolean>;
  /** An alert's deliveries. */
  listDeliveries(farmId: string, alertId: string): Promise<Delivery[]>;
  /** Deliveries pending or with a lapsed lease, due by `now`, oldest due first (the due index). */
  listDueDeliveries(now: Date, limit: number): Promise<Delivery[]>;
  /**
   * Claims a due delivery for one sender until `leaseUntil` (a conditional write: of two senders
   * only one gets it); undefined when it is not due, already claimed or settled.
   */
  claimDelivery(d: Delivery, lease: string, now: Date, leaseUntil: Date): Promise<Delivery | undefined>;
  /** Marks a claimed delivery, only while `lease` still holds it; false when the lease was lost. */
  settleDelivery(d: Delivery, lease: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Makes a waiting delivery due earlier, at `dueAt` (a text held behind a push that failed), only
   * while it is pending and still due when it was read: false when it was claimed or moved meanwhile.
   */
  hastenDelivery(d: Delivery, dueAt: string): Promise<boolean>;
  /** The newest dead-lettered deliveries of every farm, newest first (the dead-letter index). */
  listDeadLetters(limit: number): Promise<Delivery[]>;
}

/** Escalation steps waiting in the delivery queue (a step is a delivery of its own, with `escalation` set). */
export interface EscalationQueue {
  /**
   * A user's escalation steps waiting in the due index after `from` and by `until`, oldest due
   * first (one key range of the index; the rest of what waits there is retries' backoff).
   */
  listWaitingEscalationsOf(userId: string, from: Date, until: Date): Promise<Delivery[]>;
  /**
   * Moves a waiting escalation step to `dueAt` (and its shown time to `escalationDue`), only while
   * it is pending and still due when it was read: false when it was claimed or moved meanwhile.
   */
  rescheduleEscalation(d: Delivery, dueAt: string, escalationDue: string): Promise<boolean>;
}

/** A farm's monthly text allowance (`SMS#<month>`). */
/**
 * The text a delivery holds in its farm's monthly allowance, named after the delivery (alert, user,
 * escalation step): reserving it again after a crash between the reservation and the delivery's
 * record finds it already taken instead of taking a second one.
 */
export const smsHolderOf = (d: { readonly alert_id: string; readonly user_id: string; readonly escalation?: 1 | 2 }): string =>
  `${d.alert_id}#${d.user_id}${d.escalation ? `#e${d.escalation}` : ''}`;

export interface SmsAllowance {
  /**
   * Takes one text from the farm's monthly allowance for `holder` (smsHolderOf); true also when
   * the holder already has it (counted once), false when the allowance is used up.
   */
  reserveSms(farmId: string, month: string, total: number, holder: string): Promise<boolean>;
  /** Gives the holder's text back (nothing when the holder has none). */
  releaseSms(farmId: string, month: string, holder: string): Promise<void>;
  smsCount(farmId: string, month: string): Promise<number>;
  /** Notes a text not sent because its push was opened or acknowledged in time (once per holder). */
  saveSms(farmId: string, month: string, holder: string): Promise<void>;
  /** The farm's texts saved so in the month. */
  smsSavedCount(farmId: string, month: string): Promise<number>;
}

/** Engine state, notifications, the delivery queue and its escalation steps, and the text allowance. */
export type AlertsRepository = AlertEngineStore & NotificationStore & DeliveryQueue & EscalationQueue & SmsAllowance;
