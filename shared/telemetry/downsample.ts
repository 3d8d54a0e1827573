import type { Reading } from './reading';

/** Numeric series of a reading that the downsampler can keep the extremes of. */
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

/** The farmer's two charts: vat temperature and vat volume (farmer §2.17). */
export const DEFAULT_DOWNSAMPLE_SERIES: readonly SeriesField[] = ['temp1', 'milk_volume'];

export interface DownsampleOptions {
  /** Series whose minimum and maximum each time bucket keeps. @default DEFAULT_DOWNSAMPLE_SERIES */
  readonly series?: readonly SeriesField[];
}

/**
 * Milliseconds of an ISO instant. Readings are stored canonical (`canonicalTime`:
 * YYYY-MM-DDTHH:mm:ss.sssZ), which this reads from character codes with the day cached: about ten
 * times faster than Date.parse, which would be most of the cost on a 30-day range. Anything else
 * goes to Date.parse.
 */
const makeTimeOf = (): ((iso: string) => number) => {
  let day = '\u0000'; // matches no reading, so the first one sets the day
  let dayMs = 0;
  const d = (s: string, i: number): number => s.charCodeAt(i) - 48;
  return (iso) => {
    if (iso.length !== 24 || iso.charCodeAt(10) !== 84 /* T */ || iso.charCodeAt(23) !== 90 /* Z */) return Date.parse(iso);
    if (!iso.startsWith(day)) {
      day = iso.slice(0, 10);
      dayMs = Date.parse(day);
    }
    const h = d(iso, 11) * 10 + d(iso, 12);
    const m = d(iso, 14) * 10 + d(iso, 15);
    const s = d(iso, 17) * 10 + d(iso, 18);
    const ms = d(iso, 20) * 100 + d(iso, 21) * 10 + d(iso, 22);
    return dayMs + ((h * 60 + m) * 60 + s) * 1_000 + ms;
  };
};

/**
 * Indices where the agitator status, the state machine or the mains changes: the chart shading
 * (agitator stops, battery off, milking markers) and the alerts start and end there. A null value
 * is "not reported", not a change: each is compared with the last reported value.
 */
const transitions = (src: SeriesSource): number[] => {
  const out: number[] = [];
  let agitator: Reading['agitator_status'] = null;
  let state: Reading['state_machine'] = null;
  let mains: Reading['on_mains'] = null;
  for (let i = 0; i < src.length; i++) {
    const a = src.agitator(i);
    const st = src.state(i);
    const m = src.mains(i);
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

/** `count` of `indices`, evenly spread, the first and last included. */
const spread = (indices: readonly number[], count: number): number[] => {
  if (count <= 1) return indices.slice(0, count);
  const out: number[] = [];
  for (let k = 0; k < count; k++) out.push(indices[Math.round((k * (indices.length - 1)) / (count - 1))] as number);
  return out;
};

/**
 * Thins a chart range to at most `maxPoints` readings (CHART_POINT_CAP per series) without losing
 * what a farmer looks for. Min-max bucketing in time order: the range is cut into equal time
 * buckets, and each keeps the readings holding the minimum and maximum of every series (temp1 and
 * milk_volume by default), so a one-reading 12 °C spike in a month of 4 °C survives. The first and
 * last readings and every reading where agitator_status, state_machine or on_mains changes are
 * always kept; the buckets share what the budget leaves. Output is a subsequence of the input, in
 * its order (sorted by published_at). An input that already fits comes back as it is (a copy).
 * Only if the changes alone outnumber maxPoints are they thinned, evenly, to fit: the cap holds.
 * O(n): 43,200 readings (30 days a minute apart) take a few milliseconds.
 */
export const downsample = (readings: readonly Reading[], maxPoints: number, options: DownsampleOptions = {}): Reading[] => {
  const timeOf = makeTimeOf();
  const src: SeriesSource = {
    length: readings.length,
    time: (i) => timeOf((readings[i] as Reading).published_at),
    value: (field, i) => (readings[i] as Reading)[field],
    agitator: (i) => (readings[i] as Reading).agitator_status,
    state: (i) => (readings[i] as Reading).state_machine,
    mains: (i) => (readings[i] as Reading).on_mains,
  };
  return downsampleIndices(src, maxPoints, options).map((i) => readings[i] as Reading);
};

/**
 * A range of readings as downsampleIndices reads it: by index, so the same thinning runs over
 * reading objects (downsample) and over a day bucket's columns without building an object per
 * reading (the dashboard's 30-day ranges: 43,200 readings a vat, of which a few thousand are sent).
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

/** downsample() as ascending indices into the source. */
export const downsampleIndices = (src: SeriesSource, maxPoints: number, options: DownsampleOptions = {}): number[] => {
  const n = src.length;
  const max = Math.max(0, Math.floor(maxPoints));
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  if (max === 0) return [];

  const changes = transitions(src);
  const must = [0, ...changes.filter((i) => i !== 0 && i !== n - 1), n - 1];
  if (must.length >= max) return spread(must, max);

  const keep = new Uint8Array(n);
  for (const i of must) keep[i] = 1;

  const series = options.series ?? DEFAULT_DOWNSAMPLE_SERIES;
  const perBucket = 2 * series.length;
  const buckets = perBucket === 0 ? 0 : Math.floor((max - must.length) / perBucket);
  if (buckets > 0) {
    const t0 = src.time(0);
    const span = src.time(n - 1) - t0;
    // Per series, the index and value of this bucket's minimum and maximum (-1: none reported yet).
    const lo = new Int32Array(series.length).fill(-1);
    const hi = new Int32Array(series.length).fill(-1);
    const loV = new Float64Array(series.length);
    const hiV = new Float64Array(series.length);
    const flush = (): void => {
      for (let s = 0; s < series.length; s++) {
        if (lo[s] !== -1) keep[lo[s] as number] = 1;
        if (hi[s] !== -1) keep[hi[s] as number] = 1;
      }
      lo.fill(-1);
      hi.fill(-1);
    };
    let bucket = 0;
    for (let i = 0; i < n; i++) {
      const b = span > 0 ? Math.min(buckets - 1, Math.floor(((src.time(i) - t0) * buckets) / span)) : Math.floor((i * buckets) / n);
      // Buckets only move forward, so even unsorted or unparsable times cannot exceed the cap.
      if (b > bucket) {
        flush();
        bucket = b;
      }
      for (let s = 0; s < series.length; s++) {
        const v = src.value(series[s] as SeriesField, i);
        if (v === null || v === undefined) continue;
        if (lo[s] === -1 || v < (loV[s] as number)) {
          lo[s] = i;
          loV[s] = v;
        }
        if (hi[s] === -1 || v > (hiV[s] as number)) {
          hi[s] = i;
          hiV[s] = v;
        }
      }
    }
    flush();
  }

  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i] === 1) out.push(i);
  return out;
};
