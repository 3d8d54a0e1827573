import type { LogType } from '../../shared/entities/install';

/**
 * The fleet's counters and lookups (decisions 055, 056): what the operators' overview and search
 * read instead of walking every farm. Counters live in the Alerts table under `STATS#` keys; the
 * lookups are the Farms table's indexes (supply number, email, unit, thing, the fleet index by
 * name, the seen index by last message, the farm-name index).
 */

/** The partition-key prefix of every counter item: the one prefix the ingest may update there. */
export const FLEET_STATS_KEY_PREFIX = 'STATS#';

interface SeenUnit {
  readonly _id: string;
  readonly name: string;
  readonly farm_id: string;
  /** null: never reported. */
  readonly seen_at: string | null;
}

export interface AlertHour {
  /** UTC hour, YYYY-MM-DDTHH. */
  readonly hour: string;
  /** Alerts raised in the hour per notification type. */
  readonly counts: ReadonlyMap<number, number>;
  /** The farms each type was raised on (as many as the counter keeps). */
  readonly farms: ReadonlyMap<number, readonly string[]>;
}

export interface IngestHour {
  readonly hour: string;
  readonly lastBatchAt: string | null;
  /** The batch's oldest record's age when the batch reached the ingest. */
  readonly lastIteratorAgeMs: number | null;
  readonly retried: number;
}

/** What a page of a prefix lookup answers: the items and where the next page starts (undefined: no more). */
export interface LookupPage<T> {
  readonly items: readonly T[];
  readonly next?: string;
}

/** The environment variable with the URL of the ingest's dead-letter queue (CDK sets it from the port's grant). */
export const INGEST_DEAD_LETTERS_URL_ENV = 'INGEST_DEAD_LETTERS_URL';

/**
 * The ingest's dead-letter queue (SQS in AWS and locally): where the stream event source names the
 * batches it gave up and the IoT rule puts the messages it could not deliver. Read only.
 */
export interface DeadLetterQueue {
  /** Messages in the queue now (visible and in flight): what waits for `npm run replay-dlq`. */
  count(): Promise<number>;
}

/** The overview's reads (the admin device function). */
export interface FleetStatsReader {
  /** Active units seen at or after `since` (counted), and before it: counted, the oldest `limit` named. */
  unitsBySeen(since: string, limit: number): Promise<{ reporting: number; silent: number; oldest: SeenUnit[] }>;
  /** The alert counters of the UTC hours from `fromHour` on. */
  alertHours(fromHour: string): Promise<AlertHour[]>;
  /** Texts reserved in a month (the notifier's month key, YYYY-MM). */
  smsSent(month: string): Promise<number>;
  /** The ingest's records of the UTC hours from `fromHour` on. */
  ingestHours(fromHour: string): Promise<IngestHour[]>;
  /** Install log entries of a type created at or after `since`. */
  installsSince(since: string, logType: LogType): Promise<number>;
}

/** The search's lookups: exact ones by key, prefix ones a page at a time (`after` from the last page). */
export interface FleetLookups {
  farmsByName(prefix: string, limit: number, after?: string): Promise<LookupPage<string>>;
  devicesByName(prefix: string, limit: number, after?: string): Promise<LookupPage<string>>;
  usersByEmail(prefix: string, limit: number, after?: string): Promise<LookupPage<string>>;
}

/** The counters the ingest keeps (its stream handler, per batch). */
export interface IngestCounters {
  recordBatch(batch: { readonly at: Date; readonly iteratorAgeMs: number | null; readonly retried: number }): Promise<void>;
}
