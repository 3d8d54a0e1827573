import type { DairyEventKind, Docket, GatewayAnswer, RefusedDocket } from '../../shared/dairy-company/payloads';

/** One try at sending an event, and what came back: the HTTP status (0: no answer). */
interface DairyAttempt {
  readonly at: string;
  readonly status: number;
  readonly message: string;
}

/**
 * An event for the dairy company, from its detection to its answer (Farms table, beside the farm).
 * `key` is its idempotency key: made once (a conditional put), so no event is queued twice, and
 * sent with every try, so a try whose answer was lost is not counted twice by the gateway.
 */
export interface DairyEvent {
  readonly key: string;
  readonly farm_id: string;
  readonly supplier_id: string;
  readonly vat: number;
  readonly kind: DairyEventKind;
  /** When it happened (the milking's or collection's start, the exception's time). */
  readonly event_at: string;
  /** The request body as sent (gatewayJson). */
  readonly payload: string;
  /**
   * pending: still to be sent (next_at); sent: the gateway accepted it; refused: the gateway's
   * verdict on the event itself (a 4xx other than those RETRIED_STATUSES), kept until an operator
   * sends it again (`requeue`).
   */
  readonly state: 'pending' | 'sent' | 'refused';
  readonly next_at: string;
  /** The last MAX_KEPT_ATTEMPTS tries, oldest first: an outage of weeks must not grow the item towards DynamoDB's 400 KB. */
  readonly attempts: readonly DairyAttempt[];
  /** Every try ever made (absent on events stored before the history was bounded: then `attempts.length`). */
  readonly attempt_count?: number;
}

/** How many tries an event keeps for the log (with the total in `attempt_count`). */
export const MAX_KEPT_ATTEMPTS = 10;

/** Tries made so far, for events stored with or without `attempt_count`. */
export const attemptCountOf = (e: Pick<DairyEvent, 'attempts' | 'attempt_count'>): number => e.attempt_count ?? e.attempts.length;

/** A docket as stored for a farm's vat (the company's pickup record). */
export interface StoredDocket extends Docket {
  readonly farm_id: string;
}

export interface DairyRepository {
  /** Queues the event unless its key is already queued: 'created' or 'exists'. */
  addEvent(event: DairyEvent): Promise<'created' | 'exists'>;
  /** Pending events due at `now`, oldest first (the pending index of every farm). */
  listDue(now: string): Promise<DairyEvent[]>;
  /**
   * Records a try on the event as it was read (its attempts and count): the newest
   * MAX_KEPT_ATTEMPTS are kept and the count goes up by one; `outcome` sets the state (pending with
   * the next try's time, sent or refused). Nothing changes when the event is no longer pending or
   * another run recorded a try since it was read.
   */
  recordAttempt(
    event: Pick<DairyEvent, 'farm_id' | 'vat' | 'kind' | 'event_at' | 'attempts' | 'attempt_count'>,
    attempt: DairyAttempt,
    outcome: { state: 'sent' | 'refused' } | { state: 'pending'; next_at: string },
  ): Promise<void>;
  /**
   * Puts the farm's refused events (or the one with `key`) back in the queue, due at `now`; their
   * tries are kept. Answers the keys requeued. Only refused events move: a pending or sent one is
   * left as it is.
   */
  requeueRefused(farmId: string, now: string, key?: string): Promise<string[]>;
  /** A farm's events, by vat, kind and time. */
  listEvents(farmId: string): Promise<DairyEvent[]>;
  putDocket(docket: StoredDocket): Promise<void>;
  /** A farm's dockets of one vat, oldest first. */
  listDockets(farmId: string, vat: number): Promise<StoredDocket[]>;
}

/**
 * Answers that say nothing about the event itself, so the event is tried again with the backoff:
 * 401 and 403 (the token was rotated or expired: it is read again before the next try), 408
 * (the gateway timed out), 409 (a conflict at the gateway, e.g. the same key in flight), 429.
 */
export const RETRIED_STATUSES: readonly number[] = [401, 403, 408, 409, 429];

/**
 * The dairy company's telemetry gateway (operator §7 "External telemetry interface"): events out,
 * tanker dockets in. `send` answers the gateway's `{code, message}` with the HTTP status; it throws
 * GatewayUnavailableError when the answer does not judge the event (network, timeout, a 5xx, one of
 * RETRIED_STATUSES, an unreadable body), which the exporter retries. Any other 4xx is the gateway's
 * verdict on the event.
 */
export interface DairyGatewayClient {
  send(kind: DairyEventKind, supplierId: string, body: string, idempotencyKey: string): Promise<{ status: number; answer: GatewayAnswer }>;
  /** The dockets of the period that passed the checks, and those refused (for the log); more than MAX_DOCKETS throws. */
  dockets(supplierId: string, from: string, to: string): Promise<{ dockets: Docket[]; refused: RefusedDocket[] }>;
}

/** No verdict on the event; `status` is the HTTP status when there was one (0: no answer). */
export class GatewayUnavailableError extends Error {
  constructor(
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}
