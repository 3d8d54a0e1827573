import { added, type DayColumns } from './day-bucket';
import type { SeriesSource } from './display-buckets';
import { READING_FIELDS, type Reading } from './reading';

/**
 * A range of readings in columns: times as epoch milliseconds, one array per field. Day buckets are
 * stored this way (day-bucket.ts), so a 30-day range is read by joining 30 days of arrays; only the
 * readings a chart keeps become objects. Building 43,200 reading objects per vat (and parsing their
 * times back) was most of a dashboard range call.
 */
export interface ReadingColumns {
  readonly t: readonly number[];
  readonly cols: DayColumns['cols'];
}

type Field = keyof DayColumns['cols'];
/** The column fields: every field of a reading but its time (`t`). */
const FIELDS = READING_FIELDS.filter((f): f is Field => f !== 'published_at');

const emptyCols = (): Record<Field, unknown[]> => Object.fromEntries(FIELDS.map((f) => [f, []])) as unknown as Record<Field, unknown[]>;

export const EMPTY_COLUMNS: ReadingColumns = { t: [], cols: emptyCols() as unknown as DayColumns['cols'] };

export const columnsFromDay = (day: DayColumns): ReadingColumns => ({ t: day.dt.map((dt) => day.t0 + dt), cols: day.cols });

export const columnsFromReadings = (readings: readonly Reading[]): ReadingColumns => {
  const cols = emptyCols();
  for (const f of FIELDS) {
    const col = cols[f];
    for (const r of readings) col.push(r[f]);
  }
  return { t: readings.map((r) => Date.parse(r.published_at)), cols: cols as unknown as DayColumns['cols'] };
};

/** The part of a time-ordered range with from ≤ t ≤ to (epoch ms). */
export const sliceColumns = (c: ReadingColumns, from: number, to: number): ReadingColumns => {
  let a = 0;
  while (a < c.t.length && (c.t[a] as number) < from) a++;
  let b = c.t.length;
  while (b > a && (c.t[b - 1] as number) > to) b--;
  if (a === 0 && b === c.t.length) return c;
  const cols = Object.fromEntries(FIELDS.map((f) => [f, c.cols[f].slice(a, b)])) as unknown as DayColumns['cols'];
  return { t: c.t.slice(a, b), cols };
};

/**
 * The parts' arrays joined into one, copied into a preallocated array (about twice as fast as
 * concat's spread); a part without the array (a column added after its bucket was written) gives nulls.
 */
const joined = <T>(parts: readonly ReadingColumns[], arrayOf: (p: ReadingColumns) => readonly T[] | undefined, length: number): (T | null)[] => {
  const out = new Array<T | null>(length);
  let k = 0;
  for (const p of parts) {
    const a = arrayOf(p);
    const n = p.t.length;
    for (let i = 0; i < n; i++) out[k++] = a ? (a[i] as T) : null;
  }
  return out;
};

/**
 * Time-ordered parts (days) joined into one range. A column is joined the first time it is read:
 * a 30-day range is 43,200 readings a vat in 20 columns, and a chart reads about half of them
 * over the whole range (the others only at the few thousand readings it keeps, by rowAt).
 */
/** The parts a joined range was made of, so rowsOf builds its rows from them without joining every column. */
const partsOf = new WeakMap<ReadingColumns, readonly ReadingColumns[]>();

export const concatColumns = (parts: readonly ReadingColumns[]): ReadingColumns => {
  const nonEmpty = parts.filter((p) => p.t.length > 0);
  if (nonEmpty.length === 0) return EMPTY_COLUMNS;
  if (nonEmpty.length === 1) return nonEmpty[0] as ReadingColumns;
  const length = nonEmpty.reduce((n, p) => n + p.t.length, 0);
  const done: Partial<Record<Field, readonly unknown[]>> = {};
  const cols = {} as Record<Field, readonly unknown[]>;
  for (const f of FIELDS) {
    Object.defineProperty(cols, f, { enumerable: true, get: () => (done[f] ??= joined<unknown>(nonEmpty, (p) => p.cols[f], length)) });
  }
  const range: ReadingColumns = { t: joined(nonEmpty, (p) => p.t, length) as number[], cols: cols as unknown as DayColumns['cols'] };
  partsOf.set(range, nonEmpty);
  return range;
};

/** Reading i as an object (one literal, one shape). */
const rowAt = (c: ReadingColumns, i: number): Reading => {
  const k = c.cols;
  return {
    published_at: new Date(c.t[i] as number).toISOString(),
    message_type: (k.message_type[i] ?? null) as Reading['message_type'],
    radar_distance: k.radar_distance[i] ?? null,
    milk_level: k.milk_level[i] ?? null,
    milk_volume: k.milk_volume[i] ?? null,
    temp1: k.temp1[i] ?? null,
    temp2: k.temp2[i] ?? null,
    temp3: k.temp3[i] ?? null,
    temp4: k.temp4[i] ?? null,
    temp5: k.temp5[i] ?? null,
    temp6: k.temp6[i] ?? null,
    pressure: k.pressure[i] ?? null,
    shaft_rpm: k.shaft_rpm[i] ?? null,
    agitator_status: k.agitator_status[i] ?? null,
    state_machine: k.state_machine[i] ?? null,
    battery_status: k.battery_status[i] ?? null,
    on_mains: k.on_mains[i] ?? null,
    milk_in: k.milk_in[i] ?? null,
    water_in: k.water_in[i] ?? null,
    quality: k.quality[i] ?? null,
    controller_status: added(k.controller_status, i),
  };
};

/** Readings at ascending `indices` (all when not given), as objects. */
export const rowsOf = (c: ReadingColumns, indices?: readonly number[]): Reading[] => {
  const parts = partsOf.get(c);
  if (!indices || !parts) return indices ? indices.map((i) => rowAt(c, i)) : c.t.map((_, i) => rowAt(c, i));
  // A joined range: each row from its part (indices ascend, so the part only moves forward).
  let p = 0;
  let start = 0;
  return indices.map((i) => {
    if (i < start) {
      p = 0;
      start = 0;
    }
    while (p < parts.length - 1 && i >= start + (parts[p] as ReadingColumns).t.length) start += (parts[p++] as ReadingColumns).t.length;
    return rowAt(parts[p] as ReadingColumns, i - start);
  });
};

/**
 * The columns as downsampleIndices reads them, each column looked up once (a joined range's
 * columns are getters that join on first read: not a call per reading).
 */
export const seriesSource = (c: ReadingColumns): SeriesSource => {
  const read: Partial<Record<Field, readonly unknown[]>> = {};
  const col = <F extends Field>(f: F) => (read[f] ??= c.cols[f]) as DayColumns['cols'][F];
  return {
    length: c.t.length,
    time: (i) => c.t[i] as number,
    value: (field, i) => col(field)[i] ?? null,
    agitator: (i) => col('agitator_status')[i] ?? null,
    state: (i) => col('state_machine')[i] ?? null,
    mains: (i) => col('on_mains')[i] ?? null,
  };
};
