import type { WatchmanCase, WatchmanRun } from '../../shared/watchman/records';
import type { HourPoint, MilkingEnd } from '../../shared/watchman/rules';
import type { WatchmanSettings } from '../../shared/watchman/settings';

/**
 * The partition keys of Watchman's records in the Farms table (the sort keys are in
 * lambdas/adapters/dynamodb/keys.ts). Each kind has a partition of its own because IAM confines
 * writes by partition key only (dynamodb:LeadingKeys): the job's grant names the lease, runs and
 * cases, the Watchman page's the settings, and neither reaches the other's (cdk/lib/port-grants.ts).
 */
export const WATCHMAN_PARTITIONS = {
  settings: 'WATCHMAN',
  lease: 'WATCHMAN#LEASE',
  runs: 'WATCHMAN#RUN',
  cases: 'WATCHMAN#CASE',
} as const;

/** Watchman's records in the Farms table (keys in lambdas/adapters/dynamodb/keys.ts). */
export interface WatchmanRepository {
  getSettings(): Promise<Partial<WatchmanSettings> | undefined>;
  putSettings(settings: WatchmanSettings): Promise<void>;
  /**
   * Takes the run lease unless another run holds an unexpired one (a conditional put): so two runs
   * never overlap, and a run that died leaves a lease that expires. true: taken.
   */
  acquireLease(runId: string, now: Date, ttlMs: number): Promise<boolean>;
  /** Gives the lease back (only the holder's). */
  releaseLease(runId: string): Promise<void>;
  putRun(run: WatchmanRun): Promise<void>;
  /** Runs newest first: one page. */
  listRuns(page: number, size: number): Promise<WatchmanRun[]>;
  /** How many runs are kept (for paging). */
  countRuns(): Promise<number>;
  listOpenCases(): Promise<WatchmanCase[]>;
  /** Opens a case unless one is open for its farm, vat and check: 'created' or 'exists'. */
  openCase(c: WatchmanCase): Promise<'created' | 'exists'>;
  /** Closes an open case: kept as closed, removed from the open ones. */
  closeCase(c: WatchmanCase, closedAt: string): Promise<void>;
}

/** One settled clock hour of a device as Watchman reduced it: its data point (null: no message) and its milking ends. */
export interface HourDigest {
  readonly hour: string;
  readonly point: HourPoint | null;
  readonly ends: readonly MilkingEnd[];
}

export interface WatchmanDigestRepository {
  /** A device's digests of the hours from `fromHour` to `toHour` (ISO hour starts, inclusive). */
  list(deviceId: string, fromHour: string, toHour: string): Promise<HourDigest[]>;
  put(deviceId: string, digests: readonly HourDigest[]): Promise<void>;
}
