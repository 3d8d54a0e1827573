import type { DairyEventKind, Docket, GatewayAnswer, RefusedDocket } from '../../shared/dairy-company/payloads';

/** One try at sending an event, and what came back (status 0: no answer). */
export interface DairyAttempt {
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
  /** pending: still to be sent (next_at); sent: the gateway accepted it; refused: a 4xx answer, final. */
  readonly state: 'pending' | 'sent' | 'refused';
  readonly next_at: string;
  readonly attempts: readonly DairyAttempt[];
}

/** A docket as stored for a farm's vat (the company's pickup record). */
export interface StoredDocket extends Docket {
  readonly farm_id: string;
}

export interface DairyRepository {
  /** Queues the event unless its key is already queued: 'created' or 'exists'. */
  addEvent(event: DairyEvent): Promise<'created' | 'exists'>;
  /** Pending events due at `now`, oldest first (the pending index of every farm). */
  listDue(now: string): Promise<DairyEvent[]>;
  /** Records a try; `outcome` sets the state (pending with the next try's time, sent or refused). */
  recordAttempt(event: Pick<DairyEvent, 'farm_id' | 'vat' | 'kind' | 'event_at'>, attempt: DairyAttempt, outcome: { state: 'sent' | 'refused' } | { state: 'pending'; next_at: string }): Promise<void>;
  /** A farm's events, by vat, kind and time. */
  listEvents(farmId: string): Promise<DairyEvent[]>;
  putDocket(docket: StoredDocket): Promise<void>;
  /** A farm's dockets of one vat, oldest first. */
  listDockets(farmId: string, vat: number): Promise<StoredDocket[]>;
}

/**
 * The dairy company's telemetry gateway (operator §7 "External telemetry interface"): events out,
 * tanker dockets in. `send` answers the gateway's `{code, message}` with the HTTP status; it throws
 * only when there is no answer to judge (network, timeout, a 5xx or 429, an unreadable body), which
 * the exporter retries. A 4xx answer is the gateway's verdict on the event and is final.
 */
export interface DairyGatewayClient {
  send(kind: DairyEventKind, supplierId: string, body: string, idempotencyKey: string): Promise<{ status: number; answer: GatewayAnswer }>;
  /** The dockets of the period that passed the checks, and those refused (for the log); more than MAX_DOCKETS throws. */
  dockets(supplierId: string, from: string, to: string): Promise<{ dockets: Docket[]; refused: RefusedDocket[] }>;
}

export class GatewayUnavailableError extends Error {}
