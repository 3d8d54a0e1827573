import type { Reading } from '../../../../shared/telemetry/reading';
import { columnsFromReadings, type ReadingColumns } from '../../../../shared/telemetry/reading-columns';

/** Readings this close to the newest are not trusted from memory (they may still arrive out of order). */
const OPEN_DAY_SAFETY_MS = 15 * 60_000;
/** Open days kept per repository: the last two days of 12 vats' ranges. */
const OPEN_DAYS_KEPT = 24;

/** An open day's readings so far, as a range read found them, with the generation of the day's drop marker then. */
interface OpenDay {
  /** The `P#` marker's generation when the day was read (undefined: no marker). */
  readonly gen: unknown;
  /** The last reading kept: readings after it are read again from the day partition. */
  readonly through: string;
  readonly columns: ReadingColumns;
}

/**
 * The open days (today and yesterday, not yet compacted) of the range reads, kept in the
 * container's memory rather than written to the table: a read writes nothing. A day is trusted
 * from memory up to 15 minutes before its newest reading, and only while the day's drop marker
 * (`P#`, which the ingest's dropPartial bumps when a late reading arrives, after storing it) has
 * the generation it had when the day was read; otherwise the day is read again.
 */
export const openDays = () => {
  const kept = new Map<string, OpenDay>();
  const id = (deviceId: string, day: string) => `${deviceId}|${day}`;
  return {
    get(deviceId: string, day: string, gen: unknown): OpenDay | undefined {
      const hit = kept.get(id(deviceId, day));
      return hit && hit.gen === gen ? hit : undefined;
    },
    /** Keeps a day's readings, read from its start, up to 15 minutes before the newest. */
    remember(deviceId: string, day: string, gen: unknown, readings: readonly Reading[]): void {
      const last = readings[readings.length - 1];
      if (!last) return;
      const through = new Date(Date.parse(last.published_at) - OPEN_DAY_SAFETY_MS).toISOString();
      const trusted = readings.filter((r) => r.published_at <= through);
      const key = id(deviceId, day);
      kept.delete(key);
      if (trusted.length === 0) return;
      kept.set(key, { gen, through: (trusted[trusted.length - 1] as Reading).published_at, columns: columnsFromReadings(trusted) });
      while (kept.size > OPEN_DAYS_KEPT) kept.delete(kept.keys().next().value as string);
    },
  };
};
