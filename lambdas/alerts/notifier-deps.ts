import type { AlertSettingsRepository } from '../ports/alert-settings';
import type { AlertsRepository } from '../ports/alerts';
import type { FarmRepository } from '../ports/farms';
import type { AlertSender } from '../ports/alert-email';
import type { Logger } from '../lib/logger';
import type { PushDeps } from './push-delivery';

export interface NotifierDeps {
  readonly farms: Pick<FarmRepository, 'getFarm' | 'getUser'>;
  readonly settings: Pick<AlertSettingsRepository, 'listUserIdsOfFarm' | 'getPreferencesOf'> &
    Partial<Pick<AlertSettingsRepository, 'getEscalationOf' | 'listOrganizationUserIdsOfFarm'>>;
  readonly alerts: Pick<
    AlertsRepository,
    'get' | 'finishDelivery' | 'listPendingDelivery' | 'addDelivery' | 'listDeliveries' | 'listDueDeliveries' | 'claimDelivery' | 'settleDelivery' | 'hastenDelivery' | 'reserveSms' | 'releaseSms' | 'saveSms'
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
export const SEND_WITHIN_MS = 12 * 60 * 60_000;
/** How long a claim holds a delivery: longer than a send may take (SEND_TIMEOUT_MS), so two senders never overlap. */
export const LEASE_MS = 60_000;
/** Each SNS call of a send is aborted after this. */
export const SEND_TIMEOUT_MS = 20_000;
/**
 * Waits before the 2nd, 3rd, … attempt of a delivery; after the last attempt fails the delivery is
 * a dead letter (about 2 h 20 min after the first try, well inside SNS outages and throttling).
 */
export const RETRY_BACKOFF_MS = [30_000, 60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 20 * 60_000, 40 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_MS.length + 1;
