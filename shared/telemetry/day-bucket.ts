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

/** A column as stored from version 2 on: runs of one value as [value, count] pairs. */
interface ColumnRuns<T> {
  readonly runs: readonly (readonly [T, number])[];
}

/**
 * A day bucket as stored (the item's `data`, deflated JSON). Version 2 stores a column whose
 * values repeat (the state machine, the message type, the battery register, mains, the columns a
 * device does not report: nulls) as runs: such a column was most of a bucket's JSON, and parsing it
 * most of a cold 30-day read (decodeDay). Version 1 buckets (every column an array) read as before.
 */
export interface StoredDay {
  readonly v: 1 | 2;
  readonly t0: number;
  readonly dt: readonly number[];
  readonly cols: { readonly [K in keyof DayColumns['cols']]?: DayColumns['cols'][K] | ColumnRuns<DayColumns['cols'][K][number]> };
}

/** Runs of equal values (===), or undefined when there would be more than a quarter as many runs as values. */
const runsOf = <T>(values: readonly T[]): (readonly [T, number])[] | undefined => {
  const runs: [T, number][] = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && last[0] === v) last[1] += 1;
    else if (runs.push([v, 1]) * 4 > values.length) return undefined;
  }
  return runs;
};

/** Readings (sorted by published_at) → the bucket as stored (version 2). */
export const encodeDay = (readings: readonly Reading[]): StoredDay => {
  const day = toDayColumns(readings);
  const cols = Object.fromEntries(
    FIELDS.map((f) => {
      const values = day.cols[f] as readonly unknown[];
      const runs = runsOf(values);
      return [f, runs ? { runs } : values];
    }),
  );
  return { v: 2, t0: day.t0, dt: day.dt, cols: cols as StoredDay['cols'] };
};

/** A stored bucket (version 1 or 2) → columns as arrays. */
export const decodeDay = (stored: StoredDay): DayColumns => {
  const n = stored.dt.length;
  const cols: Record<string, unknown> = {};
  for (const [f, col] of Object.entries(stored.cols)) {
    if (col === undefined || Array.isArray(col)) {
      cols[f] = col;
      continue;
    }
    const out = new Array<unknown>(n);
    let k = 0;
    for (const [v, count] of (col as ColumnRuns<unknown>).runs) out.fill(v, k, (k += count));
    cols[f] = out;
  }
  return { v: 1, t0: stored.t0, dt: stored.dt, cols: cols as unknown as DayColumns['cols'] };
};

/** A column added after buckets were first written: absent from older items, so null there. */
export const added = <T>(col: readonly T[] | undefined, i: number): T | null => col?.[i] ?? null;

/**
 * Columns → readings, in time order. Every reading is built as one object literal, so all share
 * one shape: a 30-day range is 43,200 readings per vat, and objects grown field by field in a loop
 * were most of a dashboard call's time (about 4 times slower, and heavy on the collector).
 */
export const fromDayColumns = (day: DayColumns): Reading[] => {
  const c = day.cols;
  const n = day.dt.length;
  const out = new Array<Reading>(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      published_at: new Date(day.t0 + (day.dt[i] as number)).toISOString(),
      message_type: (c.message_type[i] ?? null) as Reading['message_type'],
      radar_distance: c.radar_distance[i] ?? null,
      milk_level: c.milk_level[i] ?? null,
      milk_volume: c.milk_volume[i] ?? null,
      temp1: c.temp1[i] ?? null,
      temp2: c.temp2[i] ?? null,
      temp3: c.temp3[i] ?? null,
      temp4: c.temp4[i] ?? null,
      temp5: c.temp5[i] ?? null,
      temp6: c.temp6[i] ?? null,
      pressure: c.pressure[i] ?? null,
      shaft_rpm: c.shaft_rpm[i] ?? null,
      agitator_status: c.agitator_status[i] ?? null,
      state_machine: c.state_machine[i] ?? null,
      battery_status: c.battery_status[i] ?? null,
      on_mains: c.on_mains[i] ?? null,
      milk_in: c.milk_in[i] ?? null,
      water_in: c.water_in[i] ?? null,
      quality: c.quality[i] ?? null,
      controller_status: added(c.controller_status, i),
    };
  }
  return out;
};
