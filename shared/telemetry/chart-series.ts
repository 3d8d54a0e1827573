import { OUTAGE_GAP_MINUTES } from '../constants';
import { isOnMains } from './device-message';
import type { Reading } from './reading';

/**
 * The milk charts' series and shadings (farmer §2.17, operator §2 "Charts used by these views")
 * from a range of readings in time order. Pure; the activity API sends them as they are.
 */

export interface Period {
  readonly start: { readonly published_at: string };
  readonly end: { readonly published_at: string } | null;
}

/** A reading as a chart point: the fields the device reported, nulls left out. */
export const detailPoint = (r: Reading): Record<string, unknown> => {
  const out: Record<string, unknown> = { published_at: r.published_at };
  const put = (key: keyof Reading) => {
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
  return out;
};

/** operator §3 Cooler reading, for readings that carry one. */
export const coolerPoints = (readings: readonly Reading[]) =>
  readings.filter((r) => r.milk_in !== null || r.water_in !== null).map((r) => ({ published_at: r.published_at, milk_in: r.milk_in, water_in: r.water_in }));

/** Runs of one state machine value: {start, end, phystate}; a run ends where the next begins. */
export const phyStates = (readings: readonly Reading[]) => {
  const out: { start: string; end: string; phystate: string }[] = [];
  for (const r of readings) {
    if (r.state_machine === null) continue;
    const last = out[out.length - 1];
    if (last && last.phystate === r.state_machine) last.end = r.published_at;
    else {
      if (last) last.end = r.published_at;
      out.push({ start: r.published_at, end: r.published_at, phystate: r.state_machine });
    }
  }
  return out;
};

/**
 * Battery records (operator §3: raw.status hex, odd on/charging, even off) at the first report and
 * at every change between on and off: the chart shades "from the first 'off' reading to the next
 * 'on'", and every record between two changes would shade nothing new.
 */
export const batteryChanges = (readings: readonly Reading[]) => {
  const out: { published_at: string; raw: { status: string } }[] = [];
  let on: boolean | null = null;
  for (const r of readings) {
    if (r.battery_status === null) continue;
    const now = isOnMains(r.battery_status);
    if (now !== on) out.push({ published_at: r.published_at, raw: { status: r.battery_status } });
    on = now;
  }
  return out;
};

/** Agitator stop periods (farmer §4): from a status 0 to the next status 1; null end: still stopped. */
export const agitatorStops = (readings: readonly Reading[]): Period[] => {
  const out: { start: { published_at: string }; end: { published_at: string } | null }[] = [];
  let open: (typeof out)[number] | null = null;
  for (const r of readings) {
    if (r.agitator_status === 0 && open === null) {
      open = { start: { published_at: r.published_at }, end: null };
      out.push(open);
    } else if (r.agitator_status === 1 && open !== null) {
      open.end = { published_at: r.published_at };
      open = null;
    }
  }
  return out;
};

/** Outages (farmer §2.17): gaps between consecutive readings over 15 minutes. */
export const outages = (readings: readonly Reading[]): Period[] => {
  const out: Period[] = [];
  const gap = OUTAGE_GAP_MINUTES * 60_000;
  for (let i = 1; i < readings.length; i++) {
    const a = (readings[i - 1] as Reading).published_at;
    const b = (readings[i] as Reading).published_at;
    if (Date.parse(b) - Date.parse(a) > gap) out.push({ start: { published_at: a }, end: { published_at: b } });
  }
  return out;
};
