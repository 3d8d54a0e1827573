import { volumeThreshold } from '../calibration/formula';
import type { WatchmanSettings } from './settings';

/**
 * Watchman's rules, pure. The spec names the settings (operator §3, §9), not the
 * algorithms; each rule below is documented in docs/architecture.md ("Watchman").
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What Watchman reads of one device message (the raw payload keeps the signal, which readings do not). */
export interface WatchSample {
  readonly published_at: string;
  readonly temp1?: number | null;
  readonly temp2?: number | null;
  readonly shaft_rpm?: number | null;
  readonly agitator_status?: number | null;
  readonly state_machine?: string | null;
  readonly signal?: { readonly strength?: number | null; readonly quality?: number | null; readonly disconnects?: number | null } | null;
}

/** One data point: a clock hour of a vat's messages, reduced (medians resist a single glitch). */
export interface HourPoint {
  /** The hour's start, ISO. */
  readonly hour: string;
  /** Messages in the hour. */
  readonly n: number;
  readonly strength: number | null;
  readonly quality: number | null;
  /** Lowest and highest vat (temp1) or inlet (temp2) reading of the hour. */
  readonly probe_min: number | null;
  readonly probe_max: number | null;
  /** Median shaft rpm of the hour's readings taken while the agitator must stir (milking, or reported on). */
  readonly stir_rpm: number | null;
}

/** The vat and inlet probes at the end of a milking (the end of the plate cooling). */
export interface MilkingEnd {
  readonly at: string;
  readonly vat: number;
  readonly inlet: number;
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const num = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
const isMilking = (s: string | null | undefined) => s === 'som' || s === 'milking' || s === 'eom';

/** A vat's samples (any order) as hourly data points, oldest first; hours without a message are absent. */
export const hourPoints = (samples: readonly WatchSample[]): HourPoint[] => {
  const byHour = new Map<number, WatchSample[]>();
  for (const s of samples) {
    const h = Math.floor(Date.parse(s.published_at) / HOUR) * HOUR;
    const list = byHour.get(h) ?? [];
    list.push(s);
    byHour.set(h, list);
  }
  return [...byHour.entries()]
    .sort(([a], [b]) => a - b)
    .map(([h, list]) => {
      const temps = list.flatMap((s) => [s.temp1, s.temp2].filter(num));
      const stirring = list.filter((s) => isMilking(s.state_machine) || s.agitator_status === 1).map((s) => s.shaft_rpm).filter(num);
      return {
        hour: new Date(h).toISOString(),
        n: list.length,
        strength: median(list.map((s) => s.signal?.strength).filter(num)),
        quality: median(list.map((s) => s.signal?.quality).filter(num)),
        probe_min: temps.length ? Math.min(...temps) : null,
        probe_max: temps.length ? Math.max(...temps) : null,
        stir_rpm: median(stirring),
      };
    });
};

/** The last reading of each milking (the message before the state leaves som/milking/eom), with both probes. */
export const milkingEnds = (samples: readonly WatchSample[]): MilkingEnd[] => {
  const sorted = [...samples].sort((a, b) => a.published_at.localeCompare(b.published_at));
  const ends: MilkingEnd[] = [];
  sorted.forEach((s, i) => {
    const next = sorted[i + 1];
    if (!isMilking(s.state_machine) || !next || isMilking(next.state_machine)) return;
    if (num(s.temp1) && num(s.temp2)) ends.push({ at: s.published_at, vat: s.temp1, inlet: s.temp2 });
  });
  return ends;
};

// ---------------------------------------------------------------------------------------------
// Classification

type FarmClass = 'recent_install' | 'dry' | 'milking';

/**
 * Recent install: installed less than recent_install_weeks ago (skipped: its vats are still being
 * set up). Dry: no milking started in the last dried_off_days (no milking at all counts as dry).
 * Otherwise milking.
 */
export const classifyFarm = (f: { readonly install_date?: string | undefined; readonly lastMilkingAt: string | null }, now: Date, s: WatchmanSettings): FarmClass => {
  const installed = f.install_date ? Date.parse(f.install_date) : Number.NaN;
  if (Number.isFinite(installed) && now.getTime() - installed < s.recent_install_weeks * 7 * DAY) return 'recent_install';
  if (!f.lastMilkingAt || now.getTime() - Date.parse(f.lastMilkingAt) > s.dried_off_days * DAY) return 'dry';
  return 'milking';
};

// ---------------------------------------------------------------------------------------------
// Fault checks: each judges a vat's data points of the last fault_check_days.

export type CheckName = 'signal' | 'temp_probe_range' | 'temp_accuracy' | 'agitator_probe' | 'data_gaps' | 'plate_cooling' | 'calibration';
export type Verdict = { readonly status: 'pass' } | { readonly status: 'fault'; readonly evidence: string } | { readonly status: 'no_data' };

const PASS: Verdict = { status: 'pass' };
const NO_DATA: Verdict = { status: 'no_data' };
const fault = (evidence: string): Verdict => ({ status: 'fault', evidence });

/**
 * Signal: the median of the hourly signal medians, over at least minimum_data_points hours with a
 * signal. Faulty when the strength is below minimum_signal_strength_alone, or below
 * minimum_signal_strength while the quality is below minimum_signal_quality.
 */
export const checkSignal = (points: readonly HourPoint[], s: WatchmanSettings): Verdict => {
  const withSignal = points.filter((p) => p.strength !== null);
  if (withSignal.length < s.minimum_data_points) return NO_DATA;
  const strength = median(withSignal.map((p) => p.strength as number)) as number;
  const quality = median(withSignal.map((p) => p.quality).filter(num));
  if (strength < s.minimum_signal_strength_alone) return fault(`signal strength ${strength}% below ${s.minimum_signal_strength_alone}% over ${withSignal.length} hours`);
  if (strength < s.minimum_signal_strength && quality !== null && quality < s.minimum_signal_quality)
    return fault(`signal strength ${strength}% below ${s.minimum_signal_strength}% with quality ${quality}% below ${s.minimum_signal_quality}% over ${withSignal.length} hours`);
  return PASS;
};

/** Temperature probe range: any hour whose vat or inlet reading lies outside minimum/maximum_temp_probe_temp. */
export const checkTempProbeRange = (points: readonly HourPoint[], s: WatchmanSettings): Verdict => {
  const withTemps = points.filter((p) => p.probe_min !== null);
  if (withTemps.length < s.minimum_data_points) return NO_DATA;
  const bad = withTemps.filter((p) => (p.probe_min as number) < s.minimum_temp_probe_temp || (p.probe_max as number) > s.maximum_temp_probe_temp);
  if (bad.length === 0) return PASS;
  const first = bad[0] as HourPoint;
  return fault(`${bad.length} hours with a probe outside ${s.minimum_temp_probe_temp} to ${s.maximum_temp_probe_temp} °C (first ${first.hour}: ${first.probe_min} to ${first.probe_max} °C)`);
};

/**
 * Temperature accuracy: at the end of a milking the vat holds only milk that came in through the
 * inlet and was cooled since, so the vat probe cannot truly read warmer than the inlet. A vat probe
 * more than temp_accuracy_threshold above the inlet at the end of most of the window's milkings
 * (at least two) means one of the probes is off.
 */
export const checkTempAccuracy = (ends: readonly MilkingEnd[], s: WatchmanSettings): Verdict => {
  if (ends.length < 2) return NO_DATA;
  const off = ends.filter((e) => e.vat - e.inlet > s.temp_accuracy_threshold);
  if (off.length * 2 <= ends.length) return PASS;
  const worst = Math.max(...off.map((e) => e.vat - e.inlet));
  return fault(`vat probe above the inlet by more than ${s.temp_accuracy_threshold} °C at the end of ${off.length} of ${ends.length} milkings (up to ${worst.toFixed(1)} °C)`);
};

/**
 * Agitator probe: in an hour when the agitator must stir (milking, or it reports running), the
 * median shaft speed below minimum_agitator_probe_fault_threshold means the shaft stands still;
 * between the minimum and maximum thresholds it turns too slowly for a running agitator (a slipping
 * drive or a failing probe). Either, in any such hour of the window, is a fault.
 */
export const checkAgitatorProbe = (points: readonly HourPoint[], s: WatchmanSettings): Verdict => {
  if (points.length < s.minimum_data_points) return NO_DATA;
  const stirring = points.filter((p) => p.stir_rpm !== null);
  if (stirring.length === 0) return NO_DATA;
  const stopped = stirring.filter((p) => (p.stir_rpm as number) < s.minimum_agitator_probe_fault_threshold);
  const slow = stirring.filter((p) => (p.stir_rpm as number) >= s.minimum_agitator_probe_fault_threshold && (p.stir_rpm as number) < s.maximum_agitator_probe_fault_threshold);
  if (stopped.length === 0 && slow.length === 0) return PASS;
  const parts = [
    stopped.length ? `${stopped.length} hours below ${s.minimum_agitator_probe_fault_threshold} rpm while it must stir (first ${(stopped[0] as HourPoint).hour})` : '',
    slow.length ? `${slow.length} hours between ${s.minimum_agitator_probe_fault_threshold} and ${s.maximum_agitator_probe_fault_threshold} rpm while stirring (first ${(slow[0] as HourPoint).hour})` : '',
  ].filter(Boolean);
  return fault(parts.join('; '));
};

/**
 * Data gaps: a clock hour without a single message between the vat's first data point in the
 * window and the last complete hour before now. Judged once the window holds
 * minimum_data_points hours; a vat with none at all is a gap of the whole window.
 */
export const checkDataGaps = (points: readonly HourPoint[], window: { readonly from: string; readonly now: Date }, s: WatchmanSettings): Verdict => {
  const lastComplete = Math.floor(window.now.getTime() / HOUR) * HOUR - HOUR;
  if (points.length === 0) return fault(`no messages since ${window.from}`);
  const first = Date.parse((points[0] as HourPoint).hour);
  const expected = Math.max(0, Math.floor((lastComplete - first) / HOUR) + 1);
  if (expected < s.minimum_data_points) return NO_DATA;
  const seen = new Set(points.map((p) => Date.parse(p.hour)));
  const missing: number[] = [];
  for (let h = first; h <= lastComplete; h += HOUR) if (!seen.has(h)) missing.push(h);
  if (missing.length === 0) return PASS;
  return fault(`${missing.length} hours without a message (first ${new Date(missing[0] as number).toISOString()})`);
};

// ---------------------------------------------------------------------------------------------
// Calibration

/** A detected collection and the company's docket matched to it. */
export interface MatchedCollection {
  readonly at: string;
  /** Litres the platform measured leaving the vat (start volume minus end volume). */
  readonly collected: number;
  /** The docket's litres. */
  readonly docket: number;
}

/**
 * Matches each collection to the docket nearest its start within matching_pickup_minutes (of its
 * start or end); a docket is used once.
 */
export const matchCollections = (
  collections: readonly { readonly start: string; readonly end: string; readonly collected: number }[],
  dockets: readonly { readonly at: string; readonly volume: number }[],
  s: WatchmanSettings,
): MatchedCollection[] => {
  const window = s.matching_pickup_minutes * 60_000;
  const used = new Set<number>();
  const out: MatchedCollection[] = [];
  for (const c of collections) {
    const start = Date.parse(c.start);
    const end = Date.parse(c.end);
    let best = -1;
    dockets.forEach((d, i) => {
      const t = Date.parse(d.at);
      if (used.has(i) || t < start - window || t > end + window) return;
      if (best < 0 || Math.abs(t - start) < Math.abs(Date.parse((dockets[best] as { at: string }).at) - start)) best = i;
    });
    if (best >= 0) {
      used.add(best);
      out.push({ at: c.start, collected: c.collected, docket: (dockets[best] as { volume: number }).volume });
    }
  }
  return out;
};

export type CalibrationVerdict = { readonly status: 'within' | 'out'; readonly evidence: string } | { readonly status: 'unknown' };

/**
 * Calibration: the latest minimum_matched_collections matched collections of the last
 * calibration_days. Each is red by the calibration highlight rule (operator §4: |collected − docket|
 * ≥ max(100, collected / 100)); the vat is out of spec when most of them are red. Fewer matches:
 * unknown (no verdict, nothing changes). Only the latest count, so a recalibrated vat is within spec
 * again once that many collections after it agree with the dockets.
 */
export const calibrationVerdict = (matches: readonly MatchedCollection[], s: WatchmanSettings): CalibrationVerdict => {
  const n = Math.max(1, Math.round(s.minimum_matched_collections));
  if (matches.length < n) return { status: 'unknown' };
  const latest = [...matches].sort((a, b) => b.at.localeCompare(a.at)).slice(0, n);
  const red = latest.filter((m) => Math.abs(m.collected - m.docket) >= volumeThreshold(m.collected));
  const diffs = latest.map((m) => `${Math.round(m.collected - m.docket)} L`).join(', ');
  return red.length * 2 > latest.length
    ? { status: 'out', evidence: `${red.length} of the latest ${latest.length} collections differ from the dockets beyond the highlight rule (${diffs})` }
    : { status: 'within', evidence: `latest ${latest.length} collections: ${diffs}` };
};

// ---------------------------------------------------------------------------------------------
// Sync and cases

/**
 * The dairy-company sync after the run: off for a faulty or out-of-spec farm, on for a healthy one,
 * each only when its setting allows; never on when an operator turned it off by hand (`held`).
 */
export const syncDecision = (syncOn: boolean, healthy: boolean, s: WatchmanSettings, held = false): 'turn_on' | 'turn_off' | 'keep' => {
  if (!healthy && syncOn && s.auto_turn_fonterra_sync_off) return 'turn_off';
  if (healthy && !syncOn && !held && s.auto_turn_fonterra_sync_on) return 'turn_on';
  return 'keep';
};

/** A fault's identity: one open case per farm, vat and check. */
interface FaultKey {
  readonly vat: number;
  readonly check: string;
}
const faultKeyOf = (k: FaultKey): string => `${k.vat}#${k.check}`;

/**
 * Cases to open and to close: a fault without an open case opens one; an open case whose check
 * passed closes; a check with no verdict (no data) leaves its case as it is.
 */
export const reconcileCases = <C extends FaultKey>(
  open: readonly C[],
  results: readonly { readonly vat: number; readonly check: CheckName; readonly verdict: Verdict | CalibrationVerdict }[],
): { toOpen: { vat: number; check: CheckName; evidence: string }[]; toClose: C[] } => {
  const openKeys = new Set(open.map(faultKeyOf));
  const toOpen: { vat: number; check: CheckName; evidence: string }[] = [];
  const passed = new Set<string>();
  for (const r of results) {
    const v = r.verdict;
    const isFault = v.status === 'fault' || v.status === 'out';
    if (isFault && !openKeys.has(faultKeyOf(r))) {
      toOpen.push({ vat: r.vat, check: r.check, evidence: 'evidence' in v ? v.evidence : '' });
      openKeys.add(faultKeyOf(r));
    }
    if (v.status === 'pass' || v.status === 'within') passed.add(faultKeyOf(r));
  }
  return { toOpen, toClose: open.filter((c) => passed.has(faultKeyOf(c))) };
};

/** The alert type the plate-cooling check reads: 'Milk warm plate' (farmer §9 alert codes). */
const WARM_PLATE_ALERT = 103;

/**
 * Plate cooling: the plate cooler pre-cools the milk on its way into the vat; a warm plate (its
 * water off or fouled) loads the vat's refrigeration with warm milk and is a farm fault an
 * operator follows up. The alert engine already judges the plate against the farm's own
 * milk_warm_plate setting with its hold-off, so this check reads its verdicts rather than judging
 * the probe a second way: faulty when the vat raised a 'Milk warm plate' alert within the window
 * (fault_check_days), passing once none is left in it. `at` is the time of the reading that raised
 * it (the alert's data.published_at), not when it was stored.
 */
export const checkPlateCooling = (alerts: readonly { readonly type: number; readonly at: string }[], window: { readonly from: string; readonly to: string }): Verdict => {
  const warm = alerts.filter((a) => a.type === WARM_PLATE_ALERT && a.at >= window.from && a.at <= window.to).sort((a, b) => a.at.localeCompare(b.at));
  const first = warm[0];
  if (!first) return PASS;
  return fault(`${warm.length} 'Milk warm plate' ${warm.length === 1 ? 'alert' : 'alerts'} since ${window.from.slice(0, 16)}Z (first at ${first.at.slice(0, 16)}Z)`);
};
