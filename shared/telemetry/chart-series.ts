import { OUTAGE_GAP_MINUTES } from '../constants';
import { isOnMains, type ControllerStatus } from './device-message';
import type { Reading } from './reading';
import type { ReadingColumns } from './reading-columns';

/**
 * The milk charts' series and shadings (farmer §2.17, operator §2 "Charts used by these views")
 * from a range of readings in time order. Pure; the activity API sends them as they are.
 */

export interface Period {
  readonly start: { readonly published_at: string };
  readonly end: { readonly published_at: string } | null;
}

/** The fields a chart point may carry (shared/api/actions/farmer-activity.ts detailPointSchema). */
type PointKey = 'message_type' | 'milk_level' | 'milk_volume' | 'temp1' | 'temp2' | 'temp3' | 'temp4' | 'temp5' | 'temp6' | 'shaft_rpm' | 'agitator_status' | 'state_machine' | 'quality';

/** A reading as a chart point: `published_at` and the reading's other fields that are not null. */
export type ChartPoint = { published_at: string } & { -readonly [K in PointKey]?: NonNullable<Reading[K]> };

/** A reading as a chart point: the fields the device reported, nulls left out. */
export const detailPoint = (r: Reading): ChartPoint => {
  const out: Record<string, unknown> = { published_at: r.published_at };
  const put = (key: PointKey) => {
    const v = r[key];
    if (v !== null && v !== undefined) out[key] = v;
  };
  put('message_type');
  put('milk_level');
  put('milk_volume');
  put('temp1');
  put('temp2');
  put('temp3');
  put('temp4');
  put('temp5');
  put('temp6');
  put('shaft_rpm');
  put('agitator_status');
  put('state_machine');
  put('quality');
  return out as ChartPoint;
};

/**
 * A dashboard range point: the charts' series (volume, level, vat, inlet, plate, ambient and CIP
 * temperatures, stirrer), nulls left out. The state machine and the message type are not repeated
 * on every point: phyStateData carries the state runs, and a 30-day answer is large enough.
 */
export const rangePoint = (r: Reading): ChartPoint => {
  const out: ChartPoint = { published_at: r.published_at };
  if (r.milk_level !== null) out.milk_level = r.milk_level;
  if (r.milk_volume !== null) out.milk_volume = r.milk_volume;
  if (r.temp1 !== null) out.temp1 = r.temp1;
  if (r.temp2 !== null) out.temp2 = r.temp2;
  if (r.temp3 !== null) out.temp3 = r.temp3;
  if (r.temp4 !== null) out.temp4 = r.temp4;
  if (r.temp5 !== null) out.temp5 = r.temp5;
  if (r.agitator_status !== null) out.agitator_status = r.agitator_status;
  return out;
};

/** operator §3 Cooler reading, for readings that carry one. */
export const coolerPoints = (readings: readonly Reading[]) =>
  readings.filter((r) => r.milk_in !== null || r.water_in !== null).map((r) => ({ published_at: r.published_at, milk_in: r.milk_in, water_in: r.water_in }));

const isoAt = (c: ReadingColumns, i: number) => new Date(c.t[i] as number).toISOString();

/** Runs of one state machine value: {start, end, phystate}; a run ends where the next begins. */
export const phyStates = (c: ReadingColumns) => {
  interface Run {
    start: number;
    end: number;
    phystate: string;
  }
  let run: Run | null = null;
  const runs: Run[] = [];
  const states = c.cols.state_machine;
  for (let i = 0; i < c.t.length; i++) {
    const s = states[i];
    if (s === null || s === undefined) continue;
    if (run && run.phystate === s) run.end = i;
    else {
      if (run) run.end = i;
      run = { start: i, end: i, phystate: s };
      runs.push(run);
    }
  }
  return runs.map((r) => ({ start: isoAt(c, r.start), end: isoAt(c, r.end), phystate: r.phystate }));
};

/**
 * Battery records (operator §3: raw.status hex, odd on/charging, even off) at the first report and
 * at every change between on and off: the chart shades "from the first 'off' reading to the next
 * 'on'", and every record between two changes would shade nothing new.
 */
export const batteryChanges = (c: ReadingColumns) => {
  const out: { published_at: string; raw: { status: string } }[] = [];
  let on: boolean | null = null;
  let last: string | null = null;
  for (let i = 0; i < c.t.length; i++) {
    const status = c.cols.battery_status[i];
    if (status === null || status === undefined) continue;
    // The register repeats itself: parse only when it differs from the last one seen.
    if (status === last) continue;
    last = status;
    const now = isOnMains(status);
    if (now !== on) out.push({ published_at: isoAt(c, i), raw: { status } });
    on = now;
  }
  return out;
};

/** Agitator stop periods (farmer §4): from a status 0 to the next status 1; null end: still stopped. */
export const agitatorStops = (c: ReadingColumns): Period[] => {
  const out: { start: { published_at: string }; end: { published_at: string } | null }[] = [];
  let open: (typeof out)[number] | null = null;
  const status = c.cols.agitator_status;
  for (let i = 0; i < c.t.length; i++) {
    const a = status[i];
    if (a === 0 && open === null) {
      open = { start: { published_at: isoAt(c, i) }, end: null };
      out.push(open);
    } else if (a === 1 && open !== null) {
      open.end = { published_at: isoAt(c, i) };
      open = null;
    }
  }
  return out;
};

/** Outages (farmer §2.17): gaps between consecutive readings over 15 minutes. */
export const outages = (c: ReadingColumns): Period[] => {
  const out: Period[] = [];
  const gap = OUTAGE_GAP_MINUTES * 60_000;
  for (let i = 1; i < c.t.length; i++) {
    if ((c.t[i] as number) - (c.t[i - 1] as number) > gap) out.push({ start: { published_at: isoAt(c, i - 1) }, end: { published_at: isoAt(c, i) } });
  }
  return out;
};

/**
 * The Vat-Man Auto controller's selector now (farmer §2.5's Auto tile): the latest reported
 * `controller_status` of a time-ordered range and the time of the first reading of its current run,
 * i.e. when it last changed; `since` is null when it held for the whole range (it changed before).
 * Readings without a status say nothing (only DATA readings carry one) and are passed over.
 * Undefined when no reading of the range reports one.
 */
export const controllerNow = (c: ReadingColumns): { status: ControllerStatus; since: string | null } | undefined => {
  const statuses = c.cols.controller_status;
  let i = c.t.length - 1;
  while (i >= 0 && (statuses[i] === null || statuses[i] === undefined)) i--;
  if (i < 0) return undefined;
  const status = statuses[i] as ControllerStatus;
  let first = i;
  for (let j = i - 1; j >= 0; j--) {
    const s = statuses[j];
    if (s === null || s === undefined) continue;
    if (s !== status) return { status, since: isoAt(c, first) };
    first = j;
  }
  return { status, since: null };
};
