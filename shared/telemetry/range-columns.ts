import type { ReadingColumns } from './reading-columns';

/**
 * The columnar form of a range answer's chart readings (FARMER_DASHBOARD_LAST_ALL with
 * `form=columns`, decision 111): one array per field in place of an object per reading, so a
 * field's name is sent once, not once a reading. Times are milliseconds after the first reading
 * (`base`); values are rounded to what the sensor reports (RESOLUTION). The cooler's Milk In and
 * Water In ride in the same rows, null where a reading has none.
 *
 * The web app draws from these arrays directly (frontend chart-data.ts `columnSeries`): no object
 * per reading is built on either side of the wire.
 */

/**
 * Each column with the step its sensor reports in: temperatures in tenths of a degree, level in
 * millimetres, volume in litres (volumeFromLevel rounds it), the stirrer as 0/1. A finer value
 * adds nothing a chart or an alert line can show (§9 shows temperatures to one decimal).
 */
const RESOLUTION = {
  milk_level: 1,
  milk_volume: 1,
  temp1: 0.1,
  temp2: 0.1,
  temp3: 0.1,
  temp4: 0.1,
  temp5: 0.1,
  agitator_status: 1,
  milk_in: 0.1,
  water_in: 0.1,
} as const;
export type ColumnField = keyof typeof RESOLUTION;
export const COLUMN_FIELDS = Object.keys(RESOLUTION) as ColumnField[];

/** The readings of a range answer as columns: `t[i]` ms after `base` (ISO 8601), each field's value at i or null. */
export type RangeColumns = { base: string; t: number[] } & Record<ColumnField, (number | null)[]>;

/** `v` on the step `step` (a tenth is rounded through ×10: 0.1 × k is not exact in binary). */
const onStep = (v: number, step: number): number => (step === 1 ? Math.round(v) : Math.round(v / step) / Math.round(1 / step));

export const emptyColumns = (base: string): RangeColumns =>
  ({ base, t: [], ...Object.fromEntries(COLUMN_FIELDS.map((f) => [f, []])) }) as unknown as RangeColumns;

/**
 * Readings `kept` (ascending indices of `c`) as columns. A cooler value equal to the cooler
 * readings on either side of it is sent as null: the line between its neighbours is the same
 * (as the row form's thinCooler leaves the row out).
 */
export const rangeColumns = (c: ReadingColumns, kept: readonly number[]): RangeColumns => {
  const base = kept.length ? (c.t[kept[0] as number] as number) : 0;
  const out = emptyColumns(new Date(base).toISOString());
  for (const i of kept) out.t.push((c.t[i] as number) - base);
  for (const f of COLUMN_FIELDS) {
    const col = c.cols[f] as readonly (number | null | undefined)[];
    const step = RESOLUTION[f];
    const to = out[f];
    for (const i of kept) {
      const v = col[i];
      to.push(v === null || v === undefined || !Number.isFinite(v) ? null : onStep(v, step));
    }
  }
  thinCoolerColumns(out);
  return out;
};

/** Nulls the cooler values equal to both cooler readings around them (the first and last are kept). */
const thinCoolerColumns = (c: RangeColumns) => {
  const rows: number[] = [];
  for (let i = 0; i < c.t.length; i++) if (c.milk_in[i] !== null || c.water_in[i] !== null) rows.push(i);
  const drop: number[] = [];
  for (let k = 1; k < rows.length - 1; k++) {
    const [a, r, b] = [rows[k - 1] as number, rows[k] as number, rows[k + 1] as number];
    if (c.milk_in[a] === c.milk_in[r] && c.water_in[a] === c.water_in[r] && c.milk_in[b] === c.milk_in[r] && c.water_in[b] === c.water_in[r]) drop.push(r);
  }
  for (const r of drop) {
    c.milk_in[r] = null;
    c.water_in[r] = null;
  }
};

/** Epoch ms of reading i. */
export const timeAt = (c: RangeColumns, i: number): number => Date.parse(c.base) + (c.t[i] as number);

/** Epoch ms of the last reading, undefined when there is none. */
export const lastTime = (c: RangeColumns): number | undefined => (c.t.length ? timeAt(c, c.t.length - 1) : undefined);

/**
 * The readings of `old` from `from` to `since` (epoch ms) followed by all of `fresh`, on `old`'s
 * base (or `fresh`'s when nothing of `old` is kept): a 120 s refresh merged into what it refreshes.
 */
export const mergeColumns = (old: RangeColumns, fresh: RangeColumns, from: number, since: number): RangeColumns => {
  const oldBase = Date.parse(old.base);
  const keep: number[] = [];
  for (let i = 0; i < old.t.length; i++) {
    const t = oldBase + (old.t[i] as number);
    if (t >= from && t <= since) keep.push(i);
  }
  if (keep.length === 0) return fresh;
  const base = oldBase + (old.t[keep[0] as number] as number);
  const freshBase = Date.parse(fresh.base);
  const out = emptyColumns(new Date(base).toISOString());
  for (const i of keep) out.t.push(oldBase + (old.t[i] as number) - base);
  for (const dt of fresh.t) out.t.push(freshBase + dt - base);
  for (const f of COLUMN_FIELDS) {
    const to = out[f];
    for (const i of keep) to.push(old[f][i] ?? null);
    for (const v of fresh[f]) to.push(v);
  }
  return out;
};

/**
 * The columns as the spec's rows (detailData: nulls left out; coolerData: the readings with a
 * cooler value), for data.csv when the finer rows could not be had.
 */
export const rowsOfColumns = (c: RangeColumns) => {
  const detail: ({ published_at: string } & Partial<Record<ColumnField, number>>)[] = [];
  const cooler: { published_at: string; milk_in: number | null; water_in: number | null }[] = [];
  for (let i = 0; i < c.t.length; i++) {
    const published_at = new Date(timeAt(c, i)).toISOString();
    const row: (typeof detail)[number] = { published_at };
    for (const f of COLUMN_FIELDS) {
      const v = c[f][i];
      if (v !== null && v !== undefined && f !== 'milk_in' && f !== 'water_in') row[f] = v;
    }
    detail.push(row);
    if (c.milk_in[i] !== null || c.water_in[i] !== null) cooler.push({ published_at, milk_in: c.milk_in[i] ?? null, water_in: c.water_in[i] ?? null });
  }
  return { detail, cooler };
};
