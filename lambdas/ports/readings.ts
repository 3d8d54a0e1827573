import type { Activity, ActivityKind } from '../../shared/telemetry/activities';
import type { ReadingColumns } from '../../shared/telemetry/reading-columns';
import type { Reading } from '../../shared/telemetry/reading';

/** A message the ingest could not accept, kept with the reason (30 days). */
interface RejectedMessage {
  readonly received_at: string;
  readonly topic: string;
  readonly reason: string;
  /** The payload as received (text; cut at 8 KB). */
  readonly payload: string;
}

/** A stored activity with the device and farm it belongs to. */
export interface StoredActivity extends Activity {
  readonly device_id: string;
  readonly farm_id: string;
}

type PutReadingResult = 'created' | 'duplicate' | 'conflict';

/** A device's readings (the day partitions `R#<device>#<day>`): stored once each, read by instant or range. */
export interface ReadingsStore {
  /**
   * Stores a reading with its raw payload unless that instant is already stored. 'duplicate':
   * the same message again (nothing changes); 'conflict': a different message with the same
   * published_at (nothing changes either; the caller rejects it).
   */
  putReading(deviceId: string, reading: Reading, raw: string): Promise<PutReadingResult>;
  /**
   * The stored readings at these instants, several devices at once (BatchGetItem, 100 keys a
   * request), keyed by `readingKey`. The ingest's duplicate check for a batch of messages.
   */
  getReadings(keys: readonly { readonly deviceId: string; readonly publishedAt: string }[]): Promise<Map<string, Reading>>;
  /**
   * Stores readings with their raw payloads, several devices at once (BatchWriteItem, 25 a
   * request), unconditionally: the caller has checked with getReadings that none is stored yet.
   */
  writeReadings(entries: readonly { readonly deviceId: string; readonly reading: Reading; readonly raw: string }[]): Promise<void>;
  /** Readings from the day partitions (not the buckets), from ≤ t ≤ to, in time order. */
  readPartitions(deviceId: string, from: string, to: string): Promise<Reading[]>;
  /** A device's newest reading of the last two UTC days (today's partition, then yesterday's). */
  latestReading(deviceId: string, now: string): Promise<Reading | undefined>;
}

/** The raw payloads kept beside the readings (the 30-day raw archive). */
export interface RawArchive {
  /** The raw archive of one UTC day (operator §2 'Device raw dumps'). */
  listRaw(deviceId: string, day: string): Promise<{ published_at: string; raw: string }[]>;
  /** The raw messages of [from, to] (any span of UTC days, e.g. a farm's local day), oldest first. */
  listRawBetween(deviceId: string, from: string, to: string): Promise<{ published_at: string; raw: string }[]>;
  /** One message's raw payload by its reading's key, or undefined once it has expired. */
  getRaw(deviceId: string, publishedAt: string): Promise<string | undefined>;
}

/** Closed UTC days compacted into one item each (`B#<device>`), and the range reads that use them. */
export interface DayBuckets {
  /**
   * Readings from ≤ t ≤ to in time order: compacted days from their buckets (one Query for the
   * whole range), the rest from their day partitions, queried in parallel.
   */
  readRange(deviceId: string, from: string, to: string): Promise<Reading[]>;
  /**
   * readRange for several devices, in columns: a bucket's arrays are joined as they are, with no
   * object per reading. Buckets come by key (BatchGetItem), uncompacted days by Query.
   */
  readRangeColumns(deviceIds: readonly string[], from: string, to: string): Promise<ReadingColumns[]>;
  /** Compacts one UTC day's readings into its bucket; an older compaction never overwrites a newer one. */
  compactDay(deviceId: string, day: string): Promise<void>;
}

/** An open day's drop marker (`P#<device>`): its generation tells the range reads a late reading arrived. */
export interface PartialBuckets {
  /**
   * Bumps the generation of a day's drop marker (a late reading arrived for it, and is stored by
   * then): a range read that kept the day in memory at another generation reads it again. Also
   * clears what older code stored there (a partial bucket's data).
   */
  dropPartial(deviceId: string, day: string): Promise<void>;
}

/** The detector state as it was just before an hour's first reading (`S#<device>`), for replays. */
export interface ReplaySnapshots {
  getSnapshotAtOrBefore(deviceId: string, iso: string): Promise<{ hour: string; state: unknown } | undefined>;
  /** Written only if no snapshot there has seen more readings (n). */
  putSnapshot(deviceId: string, hour: string, state: unknown, n: number): Promise<void>;
}

/** Derived activities (`A#<device>`, by kind then start). */
export interface ActivityStore {
  /** Written only if the stored version was produced by a state that had seen no more readings. */
  putActivity(activity: StoredActivity, n: number): Promise<void>;
  deleteActivity(deviceId: string, kind: ActivityKind, start: string, n: number): Promise<void>;
  /** A device's activities whose start lies in [from, to], every kind, by kind then start. */
  listActivities(deviceId: string, from: string, to: string, kinds?: readonly ActivityKind[]): Promise<StoredActivity[]>;
  getActivity(deviceId: string, kind: ActivityKind, start: string): Promise<StoredActivity | undefined>;
  /** A device's latest activity of one kind (by start), however long ago. */
  latestActivity(deviceId: string, kind: ActivityKind): Promise<StoredActivity | undefined>;
}

/** The farmer's herd note on a milking (FARMER_MILKING_ONE_HEAD, `H#<device>`), kept apart from the activity item. */
export interface HerdNotes {
  putHerdNote(deviceId: string, start: string, herd: unknown): Promise<void>;
  getHerdNote(deviceId: string, start: string): Promise<unknown>;
}

/** Messages the ingest refused (`X#<day>`). */
export interface RejectedMessages {
  putRejected(message: RejectedMessage, digest: string): Promise<void>;
  listRejected(day: string): Promise<RejectedMessage[]>;
  /** A page of a UTC day's rejected messages (`after`: the last page's `next`; none: no more). */
  pageRejected(day: string, limit: number, after?: string): Promise<{ readonly items: readonly RejectedMessage[]; readonly next?: string }>;
}

/** Readings, the raw archive, day and partial buckets, replay snapshots, activities, herd notes and rejected messages. */
export type ReadingsRepository = ReadingsStore & RawArchive & DayBuckets & PartialBuckets & ReplaySnapshots & ActivityStore & HerdNotes & RejectedMessages;
