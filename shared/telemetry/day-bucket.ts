import { READING_FIELDS, type Reading } from './reading';

/**
 * A closed day of one vat's readings in columns (docs/architecture.md, "Readings table"): one
 * array per field, times as second offsets from the first reading. Columns of similar numbers
 * compress well, so a day of one-minute readings (1,440) is one small item and a 30-day chart
 * is one Query of 30 items instead of 43,200.
 */
export interface DayColumns {
  readonly v: 1;
  /** Epoch milliseconds of the first reading. */
  readonly t0: number;
  /** Offsets from t0 in milliseconds, one per reading, ascending. */
  readonly dt: readonly number[];
  readonly cols: { readonly [K in Exclude<keyof Reading, 'published_at'>]: readonly Reading[K][] };
}

/** The columns: every field but the time, which is `t0` + `dt`. */
const FIELDS = READING_FIELDS.filter((f): f is Exclude<keyof Reading, 'published_at'> => f !== 'published_at');

/** Readings (sorted by published_at) → columns. */
export const toDayColumns = (readings: readonly Reading[]): DayColumns => {
  const t0 = readings.length ? Date.parse(readings[0]!.published_at) : 0;
  const cols = Object.fromEntries(FIELDS.map((f) => [f, readings.map((r) => r[f])])) as unknown as DayColumns['cols'];
  return { v: 1, t0, dt: readings.map((r) => Date.parse(r.published_at) - t0), cols };
};

/** Columns → readings, in time order. */
export const fromDayColumns = (day: DayColumns): Reading[] =>
  day.dt.map((dt, i) => {
    const reading: Record<string, unknown> = { published_at: new Date(day.t0 + dt).toISOString() };
    for (const f of FIELDS) reading[f] = day.cols[f][i] ?? null;
    return reading as unknown as Reading;
  });
