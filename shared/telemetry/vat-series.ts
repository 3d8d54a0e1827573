import { agitatorStops, batteryChanges, coolerPoints, outages, phyStates, rangePoint, type ChartPoint, type Period } from './chart-series';
import { isMilkingState, type StateMachine } from './device-message';
import { displayCap, displayIndices, MAX_POINTS_PER_PIXEL, type DisplayOptions } from './display-buckets';
import type { Reading } from './reading';
import { rangeColumns, type RangeColumns } from './range-columns';
import { rowsOf, seriesSource, type ReadingColumns } from './reading-columns';

/**
 * One vat's chart series over a range, as every range answer sends it (the dashboard range, a
 * storage, the milk-quality views, the operator's device series): the readings a chart of
 * `points` pixels draws (display-buckets.ts) and the shadings and markers drawn over them, each at
 * the same resolution. The answer's schema is `vatSeriesSchema` (shared/api/actions/farmer-activity.ts).
 *
 * The shadings are thinned to the chart's pixel too, keeping what an alert or a marker is read from:
 *  - agitator stops: two stops with less than a pixel of running between them are drawn as one
 *    band (a pixel cannot show the gap). No stop is dropped: every stopped minute stays inside a
 *    band, and a stop long enough to raise the agitator alert (40 minutes) keeps its end, and its
 *    start unless a stop less than a pixel before it is joined to it (then the band starts earlier);
 *  - state runs: a run shorter than a pixel joins the run before it when both are milking states
 *    (som, milking, eom) or both are not, so every milking start and end (and every collection
 *    emptying the vat, a change from storage to empty) stays where it was;
 *  - cooler rows: a row whose Milk In and Water In equal those of the rows on either side adds
 *    nothing to the line and is left out; the first and last are kept.
 */
interface VatSeriesOptions<P = ChartPoint> extends DisplayOptions {
  /** A reading as the answer's point (rangePoint by default). */
  readonly point?: (r: Reading) => P;
  /** Only readings after this (epoch ms) are sent as points (a refresh after a cursor). */
  readonly after?: number;
}

/** What vatSeries answers: `points` counts the readings before thinning (after `after`). */
interface VatSeries<P = ChartPoint> {
  points: number;
  detailData: P[];
  coolerData: ReturnType<typeof coolerPoints>;
  phyStateData: ReturnType<typeof phyStates>;
  batteryData: ReturnType<typeof batteryChanges>;
  agitatorData: { listStop: Period[] };
  outageData: Period[];
}

/**
 * Milliseconds a pixel of the chart stands for: the range's span over half the points it may hold.
 * Zero (nothing joined) when the readings fit in those points: the answer is then exact, and the
 * 120 s refresh merged into it gives what the whole range gives.
 */
const pixelOf = (c: ReadingColumns, options: DisplayOptions): number => {
  const n = c.t.length;
  if (n < 2) return 0;
  const cap = Math.max(2, Math.min(options.maxPoints ?? displayCap(options.points), options.limit ?? Infinity));
  if (n <= cap) return 0;
  return ((c.t[n - 1] as number) - (c.t[0] as number)) / Math.max(1, cap / MAX_POINTS_PER_PIXEL);
};

const ms = (p: { published_at: string } | null) => (p ? Date.parse(p.published_at) : Infinity);

/** Stops joined across running shorter than `pixel` (a still-open stop ends the list). */
export const thinStops = (stops: readonly Period[], pixel: number): Period[] => {
  const out: Period[] = [];
  for (const s of stops) {
    const last = out[out.length - 1];
    if (last && last.end && ms(s.start) - ms(last.end) < pixel) {
      out[out.length - 1] = { start: last.start, end: s.end };
    } else out.push(s);
  }
  return out;
};

type Run = ReturnType<typeof phyStates>[number];
const milkingClass = (s: string) => isMilkingState(s as StateMachine);

/** Runs shorter than `pixel` joined into the run before them when both are milking or both are not. */
export const thinRuns = (runs: readonly Run[], pixel: number): Run[] => {
  const out: Run[] = [];
  let before: string | undefined;
  for (const r of runs) {
    const last = out[out.length - 1];
    const short = Date.parse(r.end) - Date.parse(r.start) < pixel;
    // storage → empty is a collection: it stays a boundary however short the runs around it.
    const collection = before === 'storage' && r.phystate === 'empty';
    before = r.phystate;
    if (last && short && !collection && milkingClass(last.phystate) === milkingClass(r.phystate)) out[out.length - 1] = { ...last, end: r.end };
    else out.push(r);
  }
  return out;
};

/** Cooler rows without those that equal both neighbours (a flat stretch of the line). */
export const thinCooler = (rows: ReturnType<typeof coolerPoints>): ReturnType<typeof coolerPoints> =>
  rows.filter((r, i) => {
    const a = rows[i - 1];
    const b = rows[i + 1];
    return !a || !b || !(a.milk_in === r.milk_in && a.water_in === r.water_in && b.milk_in === r.milk_in && b.water_in === r.water_in);
  });

/** The shadings and markers of a range, thinned to the chart's pixel. */
const shadings = (columns: ReadingColumns, options: DisplayOptions) => {
  const pixel = pixelOf(columns, options);
  return {
    phyStateData: thinRuns(phyStates(columns), pixel),
    batteryData: batteryChanges(columns),
    agitatorData: { listStop: thinStops(agitatorStops(columns), pixel) },
    outageData: outages(columns),
  };
};

/** Indices of the readings a chart keeps, those after `after` only, and how many readings that leaves before thinning. */
const shownIndices = (columns: ReadingColumns, options: VatSeriesOptions<unknown>) => {
  const after = options.after ?? -Infinity;
  const kept = displayIndices(seriesSource(columns), options);
  if (after === -Infinity) return { kept, points: columns.t.length };
  const t = columns.t;
  return { kept: kept.filter((i) => (t[i] as number) > after), points: t.filter((x) => x > after).length };
};

/** A vat's range as chart data at the chart's resolution (see the top of this file). */
export const vatSeries = <P = ChartPoint>(columns: ReadingColumns, options: VatSeriesOptions<P>): VatSeries<P> => {
  const { kept, points } = shownIndices(columns, options);
  const shown = rowsOf(columns, kept);
  return {
    points,
    detailData: shown.map(options.point ?? (rangePoint as unknown as (r: Reading) => P)),
    coolerData: thinCooler(coolerPoints(shown)),
    ...shadings(columns, options),
  };
};

/** What vatSeriesColumns answers: vatSeries with the readings as columns (range-columns.ts) in place of detailData and coolerData. */
type VatSeriesColumns = Omit<VatSeries, 'detailData' | 'coolerData'> & { columns: RangeColumns };

/**
 * vatSeries in the columnar form (decision 111): the same readings kept, the same shadings, the
 * readings' values read straight from the columns (no object per reading).
 */
export const vatSeriesColumns = (columns: ReadingColumns, options: Omit<VatSeriesOptions, 'point'>): VatSeriesColumns => {
  const { kept, points } = shownIndices(columns, options);
  return { points, columns: rangeColumns(columns, kept), ...shadings(columns, options) };
};
