import type { DetailPoint } from '@shared/api/actions/farmer-activity';
import { CHART_POINTS_MAX } from '@shared/api/fields';
import { CHART_POINT_CAP } from '@shared/constants';
import { isMilkingState, type StateMachine } from '@shared/telemetry/device-message';
import type { ColumnField, RangeColumns } from '@shared/telemetry/range-columns';
import { formatChartTime } from '../../lib/time-format';
import { qualityBand } from './quality-bands';

export interface LineSeries {
  readonly label: string;
  readonly data: readonly XY[];
  readonly colour: string;
  /** A reference line (§9 6 and 10 °C): dashed, no tooltip. */
  readonly reference?: boolean;
  /** Drawn only once the legend switches it on. */
  readonly hidden?: boolean;
  /** A state (the stirrer) holds until the next reading. */
  readonly stepped?: boolean;
}

/**
 * A vertical line at an instant: the milking chart's start, end, +4 h and +6 h (farmer §2.6, dashed
 * and labelled), the device page's message types (operator §2: AM red; EM, TEST, EM1-3 orange).
 */
export interface Marker {
  readonly at: number;
  readonly colour: string;
  readonly label?: string;
  readonly dashed?: boolean;
}

/**
 * The `points` a chart of `width` CSS pixels asks the server for (the range types' field): the
 * width rounded up to 100 px, so a window a few pixels narrower asks the same and hits the same
 * cache; undefined when no width is known (the server then answers its default). CSS pixels, not
 * device pixels: a line is at least one CSS pixel wide, and a phone's 3× screen would triple the answer.
 */
export const chartPoints = (width: number | undefined): number | undefined =>
  width && width > 0 ? Math.min(CHART_POINTS_MAX, Math.ceil(width / 100) * 100) : undefined;

/** A point of a line chart on a time (epoch ms) x axis. */
export interface XY {
  readonly x: number;
  readonly y: number;
}

/** A shaded band on a chart's x axis (epoch ms). */
export interface Band {
  readonly from: number;
  readonly to: number;
}

type NumericField = 'milk_volume' | 'milk_level' | 'temp1' | 'temp2' | 'temp3' | 'temp4' | 'temp5' | 'agitator_status' | 'shaft_rpm';

/** The readings that carry `field`, as chart points in time order, at most CHART_POINT_CAP (§9). */
export const seriesOf = (points: readonly DetailPoint[], field: NumericField): XY[] => {
  const out: XY[] = [];
  for (const p of points) {
    const y = p[field];
    const x = Date.parse(p.published_at);
    if (y === null || y === undefined || !Number.isFinite(y) || Number.isNaN(x)) continue;
    out.push({ x, y });
  }
  out.sort((a, b) => a.x - b.x);
  return out.length > CHART_POINT_CAP ? out.slice(out.length - CHART_POINT_CAP) : out;
};

/** Periods (agitator stops, outages) as bands; one still open runs to the end of the range. */
export const bandsOf = (periods: readonly { start: { published_at: string }; end: { published_at: string } | null }[], rangeEnd: number): Band[] =>
  periods.flatMap((p) => {
    const from = Date.parse(p.start.published_at);
    const to = p.end ? Date.parse(p.end.published_at) : rangeEnd;
    return Number.isNaN(from) || Number.isNaN(to) || to < from ? [] : [{ from, to }];
  });

/** A horizontal reference line across the range (§9: 6 and 10 °C). */
export const referenceLine = (y: number, from: number, to: number): XY[] => [
  { x: from, y },
  { x: to, y },
];

/** §9's limits on a temperature chart: dashed reference lines at 10 °C (red) and 6 °C (green) across the range. */
export const temperatureLimitLines = (from: number, to: number) =>
  [
    { label: '10 °C', data: referenceLine(10, from, to), colour: '#c62828', reference: true },
    { label: '6 °C', data: referenceLine(6, from, to), colour: '#2e6b31', reference: true },
  ] as const;

/**
 * What a chart's values are: litres, degrees, the stirrer's state (agitator_status 1 on, 0 off),
 * millimetres of level, shaft rpm, the colony estimate (§9 quality bands).
 */
export type ChartUnit = 'L' | '°C' | 'stirrer' | 'mm' | 'rpm' | 'quality';

/** The stirrer chart's value as words. */
export const stirrerText = (value: number): string => (value >= 1 ? 'Running' : 'Stopped');

/**
 * §2.17 tooltip: the farm's date and time in §9's chart format, then the value with its unit,
 * rounded as §9 says (volume to the nearest 10 L, temperature to 1 decimal).
 */
export const tooltipLines = (x: number, value: number, unit: ChartUnit, timeZone: string | undefined): [string, string] => [
  formatChartTime(x, timeZone),
  unit === 'stirrer'
    ? stirrerText(value)
    : unit === 'quality'
      ? `${value.toFixed(2)} (${qualityBand(value).label})`
      : unit === 'L'
        ? `${(Math.round(value / 10) * 10).toLocaleString('en-NZ')} L`
        : `${unit === '°C' ? value.toFixed(1) : Math.round(value)} ${unit}`,
];

/**
 * Battery-off periods (farmer §2.17, operator §3 Battery record): raw.status is hex, odd = on
 * mains/charging, even = off. A band runs from an 'off' record to the next 'on' (or the range end).
 */
export const batteryOffBands = (records: readonly { published_at: string; raw: { status: string } }[], rangeEnd: number): Band[] => {
  const sorted = records
    .map((r) => ({ t: Date.parse(r.published_at), status: Number.parseInt(r.raw.status, 16) }))
    .filter((r) => !Number.isNaN(r.t) && !Number.isNaN(r.status))
    .sort((a, b) => a.t - b.t);
  const bands: Band[] = [];
  let offSince: number | undefined;
  for (const r of sorted) {
    const on = r.status % 2 === 1;
    if (!on && offSince === undefined) offSince = r.t;
    if (on && offSince !== undefined) {
      bands.push({ from: offSince, to: r.t });
      offSince = undefined;
    }
  }
  if (offSince !== undefined && rangeEnd > offSince) bands.push({ from: offSince, to: rangeEnd });
  return bands;
};

/** A cooler reading (operator §3): the milk and water temperatures at the plate cooler's inlets. */
interface CoolerPoint {
  readonly published_at: string;
  readonly milk_in: number | null;
  readonly water_in: number | null;
}

/** The cooler's `field` as chart points in time order, at most CHART_POINT_CAP (§9). */
const coolerSeriesOf = (points: readonly CoolerPoint[], field: 'milk_in' | 'water_in'): XY[] => {
  const out: XY[] = [];
  for (const p of points) {
    const y = p[field];
    const x = Date.parse(p.published_at);
    if (y === null || !Number.isFinite(y) || Number.isNaN(x)) continue;
    out.push({ x, y });
  }
  out.sort((a, b) => a.x - b.x);
  return out.length > CHART_POINT_CAP ? out.slice(out.length - CHART_POINT_CAP) : out;
};

/**
 * The seven temperature series of §9 (Vat, Inlet, Plate, Ambient, CIP, Milk In, Water In; Milk
 * Volume has its own chart). The vat's temperature is what a farmer reads; the others are there
 * for a closer look, so they start hidden and the legend brings them in (as CIP always was: wash
 * water and the inlets run far warmer than stored milk and would flatten the vat's line).
 */
export const temperatureSeries = (points: readonly DetailPoint[], cooler: readonly CoolerPoint[]): LineSeries[] => [
  { label: 'Vat', data: seriesOf(points, 'temp1'), colour: '#1d4f91' },
  { label: 'Inlet', data: seriesOf(points, 'temp2'), colour: '#b26a00', hidden: true },
  { label: 'Plate', data: seriesOf(points, 'temp3'), colour: '#00838f', hidden: true },
  { label: 'Ambient', data: seriesOf(points, 'temp4'), colour: '#5b6775', hidden: true },
  { label: 'CIP', data: seriesOf(points, 'temp5'), colour: '#8e44ad', hidden: true },
  { label: 'Milk In', data: coolerSeriesOf(cooler, 'milk_in'), colour: '#0f7c8c', hidden: true },
  { label: 'Water In', data: coolerSeriesOf(cooler, 'water_in'), colour: '#6d8fd0', hidden: true },
];

/** A run of one state machine value (FARMER_DASHBOARD_LAST_ALL's phyStateData): `end` is where the next run begins. */
interface PhyStateRun {
  readonly start: string;
  readonly end: string;
  readonly phystate: string;
}

const MILKING_MARKER = '#2e6b31';
const milking = (phystate: string | undefined) => phystate !== undefined && isMilkingState(phystate as StateMachine);

/**
 * Vertical markers where the state changes to or from milking (farmer §4: som, milking and eom
 * all count as milking): 'Milking start' where milking follows another state (or opens the
 * range), 'Milking end' where another state follows it. A milking still going at the end of the
 * range has no end yet.
 */
export const milkingMarkers = (runs: readonly PhyStateRun[]): Marker[] => {
  const sorted = [...runs].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  const out: Marker[] = [];
  sorted.forEach((run, i) => {
    if (!milking(run.phystate)) return;
    const before = sorted[i - 1];
    const after = sorted[i + 1];
    if (!milking(before?.phystate)) out.push({ at: Date.parse(run.start), colour: MILKING_MARKER, label: 'Milking start', dashed: true });
    if (after && !milking(after.phystate)) out.push({ at: Date.parse(after.start), colour: MILKING_MARKER, label: 'Milking end', dashed: true });
  });
  return out.filter((m) => !Number.isNaN(m.at));
};

/**
 * A column of a range answer's columnar form (shared/telemetry/range-columns.ts) as chart points:
 * the readings that carry `field`, read straight from the arrays (no object per reading before
 * the chart's own points), at most CHART_POINT_CAP (§9). The server sends the times ascending.
 */
export const columnSeries = (c: RangeColumns, field: ColumnField): XY[] => {
  const base = Date.parse(c.base);
  const values = c[field];
  const out: XY[] = [];
  for (let i = 0; i < c.t.length; i++) {
    const y = values[i];
    if (y === null || y === undefined || !Number.isFinite(y)) continue;
    out.push({ x: base + (c.t[i] as number), y });
  }
  return out.length > CHART_POINT_CAP ? out.slice(out.length - CHART_POINT_CAP) : out;
};

/** temperatureSeries from the columnar form. */
export const columnTemperatureSeries = (c: RangeColumns): LineSeries[] => [
  { label: 'Vat', data: columnSeries(c, 'temp1'), colour: '#1d4f91' },
  { label: 'Inlet', data: columnSeries(c, 'temp2'), colour: '#b26a00', hidden: true },
  { label: 'Plate', data: columnSeries(c, 'temp3'), colour: '#00838f', hidden: true },
  { label: 'Ambient', data: columnSeries(c, 'temp4'), colour: '#5b6775', hidden: true },
  { label: 'CIP', data: columnSeries(c, 'temp5'), colour: '#8e44ad', hidden: true },
  { label: 'Milk In', data: columnSeries(c, 'milk_in'), colour: '#0f7c8c', hidden: true },
  { label: 'Water In', data: columnSeries(c, 'water_in'), colour: '#6d8fd0', hidden: true },
];
