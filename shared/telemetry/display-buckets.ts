import { DEFAULT_ALERT_SETTINGS } from '../alerts/settings';
import { COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '../compliance/cooling-rules';
import { CHART_POINT_CAP, VAT_LEVEL_ALERT_PERCENT } from '../constants';
import type { Reading } from './reading';

/**
 * Display resolution for a chart range: the readings a chart of `points` pixels needs, at most two
 * a pixel, chosen so that what a farmer looks for is still drawn. Used where a range becomes chart
 * data (the dashboard range, the operator's series), instead of a fixed point count: a 30-day range
 * of four vats is 172,800 readings and a 400-pixel chart cannot show more than 800 a series.
 *
 * Kept, in this order of priority (a later group only gets what the earlier ones left):
 *  1. the first and last reading;
 *  2. boundaries: every change of the state machine (milking start and end, a collection emptying
 *     the vat, start-up) and of the mains (a power cut), and the readings the caller marks;
 *  3. for each alert threshold, the extreme of every run of readings on either side of it (the
 *     peak of each time above 10 °C, the trough between two): so the kept series crosses each
 *     threshold exactly as often as the raw one, between the same runs, and every raw maximum above
 *     and minimum below a threshold is kept;
 *  4. per time bucket, the minimum and maximum of each chart series (and whether the agitator ran
 *     and stopped in it), with as many equal-time buckets as the cap leaves room for.
 * A group that does not fit whole is thinned evenly, so the cap always holds.
 */

/** Numeric series of a reading whose extremes a thinned range can keep. */
export type SeriesField =
  | 'milk_volume'
  | 'milk_level'
  | 'radar_distance'
  | 'temp1'
  | 'temp2'
  | 'temp3'
  | 'temp4'
  | 'temp5'
  | 'temp6'
  | 'pressure'
  | 'shaft_rpm'
  | 'milk_in'
  | 'water_in';

/**
 * A range of readings as displayIndices reads it: by index, so the same thinning runs over reading
 * objects (downsample) and over a day bucket's columns without building an object per reading.
 */
export interface SeriesSource {
  readonly length: number;
  /** Epoch milliseconds of reading i. */
  time(i: number): number;
  value(field: SeriesField, i: number): number | null;
  agitator(i: number): Reading['agitator_status'];
  state(i: number): Reading['state_machine'];
  mains(i: number): Reading['on_mains'];
}

/** Points a chart may get per pixel of its width. */
export const MAX_POINTS_PER_PIXEL = 2;
/** Points per series when the caller does not say how wide its chart is. */
const DEFAULT_SERIES_POINTS = 1_500;

/** A line a chart is read against: alerts and the §9 reference lines. */
export interface Threshold {
  readonly series: SeriesField;
  readonly value: number;
}

/**
 * The lines a vat's charts are read against: §9's 10 °C and 6 °C, the too-cold alert (its default
 * setting) and the vat-level alert at 80 % of the vat.
 */
export const vatThresholds = (vatSize: number | null | undefined): Threshold[] => [
  { series: 'temp1', value: COOL_FIRST_LIMIT_C },
  { series: 'temp1', value: COOL_SECOND_LIMIT_C },
  { series: 'temp1', value: DEFAULT_ALERT_SETTINGS.milk_cold },
  ...(vatSize ? [{ series: 'milk_volume' as const, value: (vatSize * VAT_LEVEL_ALERT_PERCENT) / 100 }] : []),
];

export interface DisplayOptions {
  /** The chart's width in pixels; without it at most DEFAULT_SERIES_POINTS points. */
  readonly points?: number | undefined;
  /** Series whose minimum and maximum every bucket keeps. */
  readonly series: readonly SeriesField[];
  readonly thresholds?: readonly Threshold[];
  /** Readings drawn as markers (the operator's message-type lines): kept with the boundaries. */
  readonly marked?: ((i: number) => boolean) | undefined;
  /** A lower cap than the chart's (an answer's share of Lambda's 6 MB). */
  readonly limit?: number | undefined;
  /** A fixed cap in place of the chart's (`points`): a caller that is not drawing one chart. */
  readonly maxPoints?: number | undefined;
  /** Keep every change of the agitator status with the boundaries (charts that draw it as a line). */
  readonly agitatorChanges?: boolean | undefined;
}

/** Points per series a chart of `points` pixels gets (also within the spec's cap of 10,000). */
export const displayCap = (points: number | undefined): number =>
  Math.min(CHART_POINT_CAP, points === undefined ? DEFAULT_SERIES_POINTS : Math.max(1, Math.floor(points)) * MAX_POINTS_PER_PIXEL);

/** `count` of `indices`, evenly spread, the first and last included. */
const spread = (indices: readonly number[], count: number): number[] => {
  if (count <= 0) return [];
  if (count >= indices.length) return [...indices];
  if (count === 1) return [indices[0] as number];
  const out: number[] = [];
  for (let k = 0; k < count; k++) out.push(indices[Math.round((k * (indices.length - 1)) / (count - 1))] as number);
  return out;
};

/**
 * Indices where the state machine or the mains (and, if asked, the agitator) changes: milking
 * start and end, a collection, a power cut. A null is "not reported", not a change.
 */
const boundaries = (src: SeriesSource, withAgitator: boolean): number[] => {
  const out: number[] = [];
  let state: ReturnType<SeriesSource['state']> = null;
  let mains: ReturnType<SeriesSource['mains']> = null;
  let agitator: ReturnType<SeriesSource['agitator']> = null;
  for (let i = 0; i < src.length; i++) {
    const st = src.state(i);
    const m = src.mains(i);
    const a = withAgitator ? src.agitator(i) : null;
    let changed = false;
    if (a !== null) {
      changed ||= agitator !== null && a !== agitator;
      agitator = a;
    }
    if (st !== null) {
      changed ||= state !== null && st !== state;
      state = st;
    }
    if (m !== null) {
      changed ||= mains !== null && m !== mains;
      mains = m;
    }
    if (changed) out.push(i);
  }
  return out;
};

/**
 * The extreme of each run of a series' readings on one side of `t`: the maximum of a run above it,
 * the minimum of a run at or below it. Consecutive extremes alternate sides, one per raw crossing.
 */
const runExtremes = (src: SeriesSource, { series, value: t }: Threshold): number[] => {
  const out: number[] = [];
  let side = 0; // 1 above, -1 at or below, 0 before the first reported value
  let best = -1;
  let bestV = 0;
  for (let i = 0; i < src.length; i++) {
    const v = src.value(series, i);
    if (v === null || v === undefined) continue;
    const s = v > t ? 1 : -1;
    if (s !== side) {
      if (best !== -1) out.push(best);
      side = s;
      best = i;
      bestV = v;
    } else if (s === 1 ? v > bestV : v < bestV) {
      best = i;
      bestV = v;
    }
  }
  if (best !== -1) out.push(best);
  return out;
};

type Value = (i: number) => number | null | undefined;

/**
 * Per fine time bucket and series, the index of the minimum and of the maximum (-1: no value).
 * Coarser buckets are unions of consecutive fine ones, so trying a bucket count costs F × S, not n × S.
 */
const fineExtremes = (src: SeriesSource, values: readonly Value[], fine: number) => {
  const s = values.length;
  const lo = new Int32Array(fine * s).fill(-1);
  const hi = new Int32Array(fine * s).fill(-1);
  const loV = new Float64Array(fine * s);
  const hiV = new Float64Array(fine * s);
  const n = src.length;
  const t0 = src.time(0);
  const span = src.time(n - 1) - t0;
  let bucket = 0;
  for (let i = 0; i < n; i++) {
    const b = span > 0 ? Math.min(fine - 1, Math.floor(((src.time(i) - t0) * fine) / span)) : Math.floor((i * fine) / n);
    // Buckets only move forward, so unsorted times cannot put a reading in an earlier one.
    if (b > bucket) bucket = b;
    for (let k = 0; k < s; k++) {
      const v = (values[k] as Value)(i);
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      const at = bucket * s + k;
      if (lo[at] === -1 || v < (loV[at] as number)) {
        lo[at] = i;
        loV[at] = v;
      }
      if (hi[at] === -1 || v > (hiV[at] as number)) {
        hi[at] = i;
        hiV[at] = v;
      }
    }
  }
  return { lo, hi, loV, hiV, s };
};

/**
 * Ascending indices of the readings a chart of `options.points` pixels draws (at most displayCap
 * of them): see the top of this file. O(n × series) plus a search over the bucket count on the
 * fine buckets' extremes: a 30-day vat (43,200 readings) takes a few milliseconds.
 */
export const displayIndices = (src: SeriesSource, options: DisplayOptions): number[] => {
  const n = src.length;
  const cap = Math.max(0, Math.floor(Math.min(options.maxPoints ?? displayCap(options.points), options.limit ?? Infinity)));
  if (n <= cap) return Array.from({ length: n }, (_, i) => i);
  if (cap === 0) return [];

  // Groups 1-3, each thinned evenly only if it does not fit whole in what is left.
  const mark = new Uint8Array(n);
  let used = 0;
  const take = (group: readonly number[]) => {
    const fresh = group.filter((i) => mark[i] === 0);
    for (const i of spread(fresh, cap - used)) {
      mark[i] = 1;
      used++;
    }
  };
  take([0, n - 1]);
  take(boundaries(src, options.agitatorChanges === true));
  const { marked } = options;
  if (marked) take(Array.from({ length: n }, (_, i) => i).filter(marked));
  take([...new Set((options.thresholds ?? []).flatMap((t) => runExtremes(src, t)))].sort((a, b) => a - b));
  const must = used;

  // Group 4: min and max per bucket, the largest bucket count whose points still fit the cap.
  const values: Value[] = [...options.series.map((f): Value => (i) => src.value(f, i)), (i) => src.agitator(i)];
  const fine = Math.max(1, cap - must);
  const { lo, hi, loV, hiV, s } = fineExtremes(src, values, fine);
  const stamp = new Int32Array(n);
  /** The indices B buckets add (stamped with B, so a try needs no clearing), or undefined past `room`. */
  const tryBuckets = (buckets: number, room: number): number[] | undefined => {
    const added: number[] = [];
    const pick = (i: number) => {
      if (i === -1 || mark[i] === 1 || stamp[i] === buckets) return;
      stamp[i] = buckets;
      added.push(i);
    };
    let f = 0;
    for (let c = 0; c < buckets; c++) {
      const end = Math.floor(((c + 1) * fine) / buckets);
      for (let k = 0; k < s; k++) {
        let l = -1;
        let h = -1;
        let lv = 0;
        let hv = 0;
        for (let g = f; g < end; g++) {
          const at = g * s + k;
          if (lo[at] !== -1 && (l === -1 || (loV[at] as number) < lv)) {
            l = lo[at] as number;
            lv = loV[at] as number;
          }
          if (hi[at] !== -1 && (h === -1 || (hiV[at] as number) > hv)) {
            h = hi[at] as number;
            hv = hiV[at] as number;
          }
        }
        pick(l);
        pick(h);
      }
      if (added.length > room) return undefined;
      f = end;
    }
    return added;
  };
  const room = cap - must;
  let best: number[] = [];
  let low = 1;
  let high = fine;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const added = tryBuckets(mid, room);
    if (added) {
      best = added;
      low = mid + 1;
    } else high = mid - 1;
  }
  for (const i of best) mark[i] = 1;

  const out: number[] = [];
  for (let i = 0; i < n; i++) if (mark[i] === 1) out.push(i);
  return out;
};
