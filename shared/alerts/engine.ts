import { OUTAGE_GAP_MINUTES, POWER_OUTAGE_ALERT_MINUTES } from '../constants';
import { isMilkingState } from '../telemetry/device-message';
import { localMinuteOfDay, wrapMinutes } from '../time/local-day';
import type { Reading } from '../telemetry/reading';
import { coolingRuleDeadlines, COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '../compliance/cooling-rules';
import { FIT_WINDOW_MINUTES, isAtRisk, predictCooling } from '../compliance/cooling-forecast';
import { emptyCapacityHistory, forecastCapacity, recordMilking, recordPickup, type CapacityHistory } from './capacity-forecast';
import { localHourMinute, localTime } from './messages';
import type { AlertSettings } from './settings';
import type { AlertData, NotificationType, RaisedAlert } from './types';

/**
 * The alert engine (issue 6): pure and incremental, like the activity detectors. Each reading
 * steps a small JSON state (`evaluate`); a periodic `sweep` raises the conditions that need no
 * reading to become true (offline — measured from when the last reading arrived —, a collection overrunning, a pick-up alert coming due, a power
 * cut when the device then falls silent). Time for reading-driven rules is the reading's own
 * published_at, so a replayed trace gives the same alerts; the sweep is given `now` by its clock.
 *
 * Dedupe and flapping: every condition is a small tracker (`Cond`) with
 *  - a raise hold-off: the condition must hold for `raiseMs` (from the first reading showing it,
 *    the run broken only by a return to normal) before it is raised, once;
 *  - hysteresis: once raised it clears only when a stricter "back to normal" test (e.g. 0.3 °C
 *    under the limit) holds continuously for `clearMs`.
 * So a temperature hovering around 6.0 °C raises 102 once and clears once; it can be raised again
 * only after a real return to normal. One-shot events (501 back online, 111 pick-up, 601 milking
 * duration) are raised once per occurrence and never stay open.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;

export const ENGINE_VERSION = 1;

/** Hold-offs and hysteresis (docs/architecture.md, "Alerts"). */
export const ALERT_TUNING = {
  /** Temperature rules: over the limit for 2 minutes (two readings) after the deadline. */
  tempRaiseMs: 2 * MIN,
  /** …and back to normal only when 0.3 °C under the limit for 10 minutes. */
  tempClearMargin: 0.3,
  tempClearMs: 10 * MIN,
  /**
   * The plate outlet runs a few degrees over the water feeding it, so on a warm day it can sit
   * near the setting for a whole milking: it must be over it for 10 unbroken minutes.
   */
  plateRaiseMs: 10 * MIN,
  coldRaiseMs: 10 * MIN,
  volumeRaiseMs: 2 * MIN,
  /** Volume clears 2 points of the vat under its threshold. */
  volumeClearPercent: 2,
  /** The agitator normally rests 25 minutes in 30 when not refrigerating: 40 minutes is a fault. */
  agitatorStopMs: 40 * MIN,
  /** No reading for this long is OFFLINE (farmer §9's outage band: over 15 minutes). */
  offlineMs: OUTAGE_GAP_MINUTES * MIN,
  /** A fall of this share of the vat between readings, outside milking, is a tanker pumping. */
  collectionDropPercent: 1,
  /** Milkings kept for the duration variance. */
  milkingHistory: 6,
  /** Below 5 % of the vat counts as empty (farmer §4). */
  emptyPercent: 5,
  qualityClearMargin: 0.1,
  /**
   * Vat-Man Auto controller (112-114): a selector turned to manual or off for a moment (a test,
   * a wash) is no fault; 5 minutes held is. A controller that stops reporting is unknown after
   * 10 minutes of regular (DATA) readings without a status.
   */
  controllerRaiseMs: 5 * MIN,
  controllerUnknownMs: 10 * MIN,
  /** A milking ending this much later than the same session usually ends is late (1201). */
  
  lateMilkingMinutes: 60,
  /**
   * Cooling at risk (105): the forecast past a deadline by over its margin (cooling-forecast.ts
   * RISK_MARGIN_MINUTES) for 10 minutes of readings; cleared once it is back on time (no margin)
   * for 10 minutes. Raised at most once per milking.
   */
  coolingRiskRaiseMs: 10 * MIN,
  coolingRiskClearMs: 10 * MIN,
  /** Ends within this of each other (minutes of day) are the same session (morning, afternoon). */
  sessionWindowMinutes: 180,
} as const;

/** Farmer §9 quality bands → dairy-company alert types. */
export const QUALITY_BANDS: readonly { readonly type: NotificationType; readonly over: number }[] = [
  { type: 1001, over: 4.3 },
  { type: 1002, over: 4.7 },
  { type: 1003, over: 5 },
  { type: 1004, over: 6 },
];

export interface Cond {
  /** First reading (ISO) of the current unbroken run of the condition. */
  since: string | null;
  open: boolean;
  clearSince: string | null;
}

interface Milking {
  start: string;
  end: string | null;
  /** The vat was (nearly) empty at the start: the 4-hour rule to 10 °C applies. */
  first: boolean;
  /** Litres in the vat when it started (the capacity forecast's milking volume). */
  startVolume?: number | null;
}

export interface AlertEngineState {
  version: typeof ENGINE_VERSION;
  /** The newest reading evaluated (older ones are ignored: late readings are old news). */
  cursor: string | null;
  /**
   * When that reading arrived (the clock's time). OFFLINE is about the device going silent, not
   * about old data: a device catching up on buffered readings is online.
   */
  seenAt: string | null;
  last: AlertData | null;
  lastOnMains: boolean | null;
  conds: Partial<Record<string, Cond>>;
  milking: Milking | null;
  durations: number[];
  /** UTC minute of day of recent milking ends (late milking, 1201). */
  ends: number[];
  collectingSince: string | null;
  pickupDue: { at: string; data: AlertData } | null;
  /**
   * Cooling at risk (105, issue 25): the ended milking being cooled, its last readings (epoch ms,
   * °C; the fit's window) and whether 105 was raised for it (once per milking). Absent in a state
   * saved before it.
   */
  cooling?: { milking: string; samples: [number, number][]; raised: boolean } | null;
  /** Milkings and detected collections for the capacity forecast (202); absent in states saved before it. */
  capacity?: CapacityHistory;
}

export interface AlertContext {
  readonly vat: { readonly vat_size: number };
  readonly settings: AlertSettings;
  /** Pro and Auto get the Pro rules (110, 111, 601, 701; farmer §2.9). */
  readonly pro: boolean;
  /** Dairy-company farms get the quality alerts (1001-1004, 1102). */
  readonly dairyCompany: boolean;
  /** Vat-Man Auto farms get the controller rules (112-114; farmer §2.9 Vat-Man Auto section). */
  readonly auto: boolean;
  /**
   * The farm's milking window from the admin import (operator §2 settings, issue 18): milkings of
   * that session are late (1201) when they end over `buffer_duration` minutes after
   * `end_of_milking` (farm-local HH:mm in `timezone`). Without one, the session's usual end is
   * learned from the previous milkings.
   */
  readonly milkingWindow?: { readonly end_of_milking: string; readonly buffer_duration: number; readonly timezone: string };
  /** The farm's IANA zone: times in an alert's words (105's predicted time) and the capacity forecast's sessions and pickup times are the farm's (§9). UTC without it. */
  readonly timezone?: string;
  /** Pickups the farmer submitted for this vat (ISO; /dts/pickup), beside the collections the engine detects. */
  readonly submittedPickups?: readonly string[];
}


export interface EngineStep {
  readonly state: AlertEngineState;
  readonly raised: RaisedAlert[];
  readonly cleared: NotificationType[];
}

/** The clock port: tests advance it; the sweep reads it. */
export interface Clock {
  now(): Date;
}

export const initialAlertState = (): AlertEngineState => ({
  version: ENGINE_VERSION,
  cursor: null,
  seenAt: null,
  last: null,
  lastOnMains: null,
  conds: {},
  milking: null,
  durations: [],
  ends: [],
  collectingSince: null,
  pickupDue: null,
});

const ms = (iso: string) => Date.parse(iso);
export const dataOf = (r: Reading): AlertData => ({ published_at: r.published_at, temp1: r.temp1, milk_volume: r.milk_volume, agitator_status: r.agitator_status });

const clone = (s: AlertEngineState): AlertEngineState => JSON.parse(JSON.stringify(s)) as AlertEngineState;

/** Collects raises and clears for one step. */
class Step {
  readonly raised: RaisedAlert[] = [];
  readonly cleared: NotificationType[] = [];
  constructor(readonly state: AlertEngineState) {}

  cond(type: NotificationType): Cond {
    const key = String(type);
    const c = this.state.conds[key] ?? { since: null, open: false, clearSince: null };
    this.state.conds[key] = c;
    return c;
  }

  /**
   * One tracker step. `over`: the raise condition holds now; `gate`: it may be raised now (a
   * cooling deadline passed, say); `normal`: the stricter return-to-normal test holds.
   */
  track(
    type: NotificationType,
    t: string,
    o: { over: boolean; gate?: boolean; normal: boolean; raiseMs: number; clearMs: number; data: AlertData; alert?: Partial<RaisedAlert>; unbroken?: boolean },
  ) {
    const c = this.cond(type);
    if (!c.open) {
      // The run resets only on a real return to normal, so a value hovering about the limit
      // (6.1, 5.9, 6.1 …) counts as continuous and is raised once rather than never.
      if (o.over) c.since = c.since ?? t;
      else if (o.normal || o.unbroken) c.since = null;
      if (o.over && (o.gate ?? true) && c.since !== null && ms(t) - ms(c.since) >= o.raiseMs) {
        c.open = true;
        c.clearSince = null;
        this.raised.push({ type, data: o.data, ...o.alert });
      }
      return;
    }
    c.clearSince = o.normal ? (c.clearSince ?? t) : null;
    if (o.normal && c.clearSince !== null && ms(t) - ms(c.clearSince) >= o.clearMs) this.close(type);
  }

  /** Clears at once (the vat emptied, the milking ended, the device came back). */
  close(type: NotificationType) {
    const c = this.state.conds[String(type)];
    if (!c) return;
    if (c.open) this.cleared.push(type);
    delete this.state.conds[String(type)];
  }

  once(type: NotificationType, data: AlertData, alert?: Partial<RaisedAlert>) {
    this.raised.push({ type, data, ...alert });
  }
}

/**
 * The cooling deadlines of the current milking (farmer §9 raw milk cooling rules): R1's and R2's
 * from the one definition (shared/compliance/cooling-rules.ts), except that on a later milking the
 * vat may never go above 10 °C, even while milking (R4).
 */
export const coolingDeadlines = (m: Milking | null): { to10: number; to6: number } => {
  if (!m) return { to10: -Infinity, to6: -Infinity };
  const start = ms(m.start);
  const { R1, R2 } = coolingRuleDeadlines(start, m.end ? ms(m.end) : null);
  return { to10: m.first ? R1 : start, to6: R2 };
};

const TEMP_TYPES: readonly NotificationType[] = [101, 102, 104, 110];

/** Steps the engine with one reading (in order; an older reading changes nothing). */
export const evaluate = (previous: AlertEngineState, r: Reading, ctx: AlertContext, clock?: Clock): EngineStep => {
  if (previous.cursor !== null && r.published_at <= previous.cursor) return { state: previous, raised: [], cleared: [] };
  const s = new Step(clone(previous));
  const st = s.state;
  const t = r.published_at;
  const now = ms(t);
  const data = dataOf(r);
  const T = ALERT_TUNING;
  const size = ctx.vat.vat_size;
  const volume = r.milk_volume;
  const milkingNow = isMilkingState(r.state_machine);
  const emptyVolume = (v: number | null) => v !== null && v < (size * T.emptyPercent) / 100;
  const hasMilk = volume !== null ? !emptyVolume(volume) : r.state_machine !== 'empty';

  // Back online: the device was OFFLINE (502 open) and speaks again.
  if (st.conds['502']?.open) {
    s.close(502);
    s.once(501, data);
  }

  // Milking start and end (som, milking and eom count as milking, farmer §4).
  if (milkingNow && (!st.milking || st.milking.end !== null)) {
    const prevVolume = st.last?.milk_volume ?? volume;
    const first = st.milking === null || prevVolume === null || emptyVolume(prevVolume);
    st.milking = { start: t, end: null, first, startVolume: st.last?.milk_volume ?? volume };
    s.close(103);
  } else if (!milkingNow && st.milking && st.milking.end === null) {
    st.milking.end = t;
    s.close(103);
    const minutes = (now - ms(st.milking.start)) / MIN;
    if (ctx.pro && st.durations.length >= 2) {
      const mean = st.durations.reduce((a, b) => a + b, 0) / st.durations.length;
      if (Math.abs(minutes - mean) > ctx.settings.milk_duration) {
        s.once(601, data, { detail: `milking took ${Math.round(minutes)} min, usually ${Math.round(mean)} min` });
      }
    }
    st.durations = [...st.durations, minutes].slice(-T.milkingHistory);
    const endMinute = Math.floor((now % 86_400_000) / MIN);
    const window = ctx.milkingWindow;
    const [wh, wm] = (window?.end_of_milking ?? '').split(':').map(Number);
    // The imported window's session: this milking ended within the session window of its end.
    const windowLate = window && wh !== undefined && wm !== undefined ? wrapMinutes(localMinuteOfDay(now, window.timezone), wh * 60 + wm) : undefined;
    if (ctx.dairyCompany && window && windowLate !== undefined && Math.abs(windowLate) <= T.sessionWindowMinutes) {
      if (windowLate > window.buffer_duration) {
        s.once(1201, data, {
          lateMilking: { end_time_current: t, end_time_schedule: new Date(now - windowLate * MIN).toISOString() },
          detail: `milking ended ${windowLate} min after the end of milking (${window.end_of_milking}, buffer ${window.buffer_duration} min)`,
        });
      }
    } else if (ctx.dairyCompany) {
      // Signed difference to each earlier end of the same session, wrapping at midnight.
      const diffs = (st.ends ?? []).map((e) => wrapMinutes(endMinute, e)).filter((d) => Math.abs(d) <= T.sessionWindowMinutes);
      if (diffs.length >= 2) {
        const late = diffs.reduce((a, b) => a + b, 0) / diffs.length;
        if (late > T.lateMilkingMinutes) {
          s.once(1201, data, {
            lateMilking: { end_time_current: t, end_time_schedule: new Date(now - Math.round(late) * MIN).toISOString() },
            detail: `milking ended ${Math.round(late)} min later than usual`,
          });
        }
      }
    }
    st.ends = [...(st.ends ?? []), endMinute].slice(-2 * T.milkingHistory);
    capacityAtMilkingEnd(s, st.milking, t, volume, data, ctx);
  }

  // Collection: a tanker pumping shows as a fast fall outside milking; it ends when the vat is empty.
  const prevVolume = st.last?.milk_volume ?? null;
  if (!milkingNow && volume !== null && prevVolume !== null && !emptyVolume(prevVolume) && prevVolume - volume >= (size * T.collectionDropPercent) / 100 && st.collectingSince === null) {
    st.collectingSince = t;
  }
  if (st.collectingSince !== null && (emptyVolume(volume) || r.state_machine === 'empty' || milkingNow)) {
    if (ctx.pro && (emptyVolume(volume) || r.state_machine === 'empty')) {
      st.pickupDue = { at: new Date(now + ctx.settings.pick_up_alert * MIN).toISOString(), data };
    }
    if (emptyVolume(volume) || r.state_machine === 'empty') {
      // A collection: the pickup history gains it, and the fill cycle (202) ends.
      st.capacity = recordPickup(st.capacity ?? emptyCapacityHistory(), st.collectingSince);
      s.close(202);
    }
    st.collectingSince = null;
    s.close(701);
  }

  // An empty vat ends the storage cycle: the cooling rules start again at the next milking.
  if (!hasMilk && !milkingNow) {
    st.milking = null;
    for (const type of TEMP_TYPES) s.close(type);
  }

  if (r.temp1 !== null && (hasMilk || milkingNow)) {
    const temp = r.temp1;
    const { to10, to6 } = coolingDeadlines(st.milking);
    s.track(101, t, { over: temp > COOL_FIRST_LIMIT_C, gate: now >= to10, normal: temp <= COOL_FIRST_LIMIT_C - T.tempClearMargin, raiseMs: T.tempRaiseMs, clearMs: T.tempClearMs, data });
    s.track(102, t, { over: temp > COOL_SECOND_LIMIT_C, gate: now >= to6, normal: temp <= COOL_SECOND_LIMIT_C - T.tempClearMargin, raiseMs: T.tempRaiseMs, clearMs: T.tempClearMs, data });
    s.track(104, t, { over: temp < ctx.settings.milk_cold, normal: temp >= ctx.settings.milk_cold + T.tempClearMargin, raiseMs: T.coldRaiseMs, clearMs: T.tempClearMs, data });
    if (ctx.pro) {
      const m = st.milking;
      const due = m?.end ? now >= ms(m.end) + ctx.settings.milk_slow_peroid * MIN : false;
      s.track(110, t, { over: temp > ctx.settings.milk_slow_temp, gate: due, normal: temp <= ctx.settings.milk_slow_temp - T.tempClearMargin, raiseMs: 0, clearMs: T.tempClearMs, data });
    }
  }

  // Plate cooler: the milk leaving the plate (temp3) too warm while milk flows.
  if (milkingNow && r.temp3 !== null) {
    const limit = ctx.settings.milk_warm_plate;
    s.track(103, t, { over: r.temp3 > limit, normal: r.temp3 <= limit - 1, raiseMs: T.plateRaiseMs, clearMs: T.plateRaiseMs, data, unbroken: true });
  }

  if (volume !== null && size > 0) {
    const pct = (volume / size) * 100;
    const limit = ctx.settings.milk_volume;
    s.track(201, t, { over: pct > limit, normal: pct < limit - T.volumeClearPercent, raiseMs: T.volumeRaiseMs, clearMs: T.volumeRaiseMs, data });
  }

  // Power outage: mains off for 5 continuous minutes (farmer §9), from the first reading off mains.
  if (r.on_mains !== null) {
    s.track(301, t, { over: !r.on_mains, normal: r.on_mains, raiseMs: POWER_OUTAGE_ALERT_MINUTES * MIN, clearMs: 0, data });
    st.lastOnMains = r.on_mains;
  }

  if (r.agitator_status !== null) {
    s.track(401, t, { over: r.agitator_status === 0 && hasMilk && st.collectingSince === null, normal: r.agitator_status === 1 || !hasMilk, raiseMs: T.agitatorStopMs, clearMs: 0, data });
  }

  coolingRisk(s, r.temp1, t, now, data, ctx, hasMilk && !milkingNow);

  if (ctx.auto) controllerRules(s, r, t, data, hasMilk || milkingNow);

  if (ctx.dairyCompany && r.quality) {
    const value = r.quality.currentEstCFU;
    if (value !== null && value !== undefined) {
      for (const band of QUALITY_BANDS) {
        s.track(band.type, t, { over: value > band.over, normal: value <= band.over - T.qualityClearMargin, raiseMs: 0, clearMs: T.tempClearMs, data, alert: { quality: { value } } });
      }
    }
    const ag = r.quality.agitator;
    const percent = ag?.timeInVat ? Math.round(((ag.timeAgitatorStop ?? 0) / ag.timeInVat) * 1000) / 10 : undefined;
    s.track(1102, t, { over: r.quality.alert === 2, normal: r.quality.alert !== 2, raiseMs: 0, clearMs: T.tempClearMs, data, alert: percent === undefined ? {} : { quality: { agitator_outage_percent: percent } } });
  }

  timeRules(s, now, ctx);
  st.cursor = t;
  // Without a clock (replays, tests) a reading arrives at its own time.
  st.seenAt = clock ? clock.now().toISOString() : t;
  st.last = data;
  return { state: st, raised: s.raised, cleared: s.cleared };
};

/**
 * Cooling at risk (105, issue 25): while the milk of an ended milking cools, the forecast of
 * shared/compliance/cooling-forecast.ts (the same fit the vat card shows) from the readings since
 * it ended: raised when the 10 °C or 6 °C time not yet reached is predicted past its §9 deadline by
 * over the margin, or not at all (the milk is not cooling), with the predicted time in its words;
 * cleared when the curve is back on time. The deadline passed, the 101/102 rules take over; a new
 * milking or an empty vat closes it.
 */
const coolingRisk = (s: Step, temp: number | null, t: string, now: number, data: AlertData, ctx: AlertContext, cooling: boolean) => {
  const st = s.state;
  const m = st.milking;
  if (!cooling || !m || m.end === null) {
    if (st.cooling) st.cooling = null;
    s.close(105);
    return;
  }
  const end = ms(m.end);
  const deadlines = coolingRuleDeadlines(ms(m.start), end);
  // Both deadlines passed: the rules themselves (102, 101) speak now; nothing more to forecast.
  if (now >= Math.max(deadlines.R1, deadlines.R2)) {
    if (st.cooling) st.cooling = { milking: m.start, samples: [], raised: true };
    s.close(105);
    return;
  }
  if (st.cooling?.milking !== m.start) st.cooling = { milking: m.start, samples: [], raised: false };
  const c = st.cooling;
  if (temp === null) return;
  c.samples = [...c.samples.filter(([at]) => at >= now - FIT_WINDOW_MINUTES * MIN), [now, temp]];
  const prediction =
    temp <= COOL_SECOND_LIMIT_C ? null : predictCooling(c.samples.map(([at, v]) => ({ published_at: new Date(at).toISOString(), temp1: v })), end, now);
  // At or below 6 °C both limits are reached: no fit needed, the condition is back to normal.
  if (!prediction && temp > COOL_SECOND_LIMIT_C) return;
  const targets = [
    { limit: COOL_FIRST_LIMIT_C, deadline: deadlines.R1 },
    { limit: COOL_SECOND_LIMIT_C, deadline: deadlines.R2 },
  ].map((x) => ({ ...x, reached: temp <= x.limit, predicted: prediction?.at(x.limit) ?? null }));
  const risky = targets.find((x) => !x.reached && isAtRisk(x.predicted, x.deadline, now));
  const onTime = targets.every((x) => x.reached || (x.predicted !== null && x.predicted <= x.deadline));
  const zone = ctx.timezone ?? 'UTC';
  const detail = risky
    ? `${risky.limit}C ${risky.predicted === null ? 'not predicted (not cooling)' : `predicted ${localHourMinute(new Date(risky.predicted).toISOString(), zone)}`}, deadline ${localHourMinute(new Date(risky.deadline).toISOString(), zone)}`
    : undefined;
  const before = s.raised.length;
  s.track(105, t, {
    over: risky !== undefined,
    gate: !c.raised,
    normal: onTime,
    raiseMs: ALERT_TUNING.coolingRiskRaiseMs,
    clearMs: ALERT_TUNING.coolingRiskClearMs,
    data,
    ...(detail ? { alert: { detail } } : {}),
  });
  if (s.raised.length > before) c.raised = true;
}

/**
 * The capacity forecast at a milking's end (issue 25): the milking joins the history, and when the
 * forecast says the vat fills before the expected pickup, 202 is raised, once per fill cycle: it
 * stays open (a later, kinder forecast does not clear it, so it cannot flap) until a collection
 * empties the vat.
 */
const capacityAtMilkingEnd = (s: Step, m: Milking, t: string, volume: number | null, data: AlertData, ctx: AlertContext) => {
  const st = s.state;
  const size = ctx.vat.vat_size;
  const history = st.capacity ?? emptyCapacityHistory();
  st.capacity = volume !== null && m.startVolume !== null && m.startVolume !== undefined ? recordMilking(history, { start: m.start, end: t, added: volume - m.startVolume }, size) : history;
  if (st.conds['202']?.open) return;
  const f = forecastCapacity({ now: t, volume, vatSize: size, history: st.capacity, submittedPickups: ctx.submittedPickups ?? [], ...(ctx.timezone ? { timeZone: ctx.timezone } : {}) });
  if (!f.fullBeforePickup || !f.atFull || !f.nextPickup) return;
  const zone = ctx.timezone ?? 'UTC';
  s.cond(202).open = true;
  s.once(202, data, { detail: `full at about ${localTime(f.atFull, zone)}, next pickup expected ${localTime(f.nextPickup, zone)}` });
};

/**
 * The Vat-Man Auto controller's selector (farmer §3: 112 VatControl status unknown, 113
 * ManualOverride, 114 OffPosition). Manual and off are raised only while the vat holds milk (or a
 * milking runs): an empty vat is switched off or run by hand for washing as a matter of course.
 * A reading without a status says nothing about manual or off; only the regular DATA reading is
 * expected to carry one, so only its silence counts towards 112.
 */
const controllerRules = (s: Step, r: Reading, t: string, data: AlertData, milk: boolean) => {
  const T = ALERT_TUNING;
  const status = r.controller_status;
  const known = status === 'auto' || status === 'manual' || status === 'off';
  if (known || r.message_type === 'DATA') {
    s.track(112, t, { over: !known, normal: known, raiseMs: T.controllerUnknownMs, clearMs: 0, data });
  }
  if (!known) return;
  s.track(113, t, { over: status === 'manual' && milk, normal: status !== 'manual' || !milk, raiseMs: T.controllerRaiseMs, clearMs: 0, data });
  s.track(114, t, { over: status === 'off' && milk, normal: status !== 'off' || !milk, raiseMs: T.controllerRaiseMs, clearMs: 0, data });
};

/** Rules that come due with time alone; run on every reading and by the sweep. */
const timeRules = (s: Step, now: number, ctx: AlertContext) => {
  const st = s.state;
  if (ctx.pro && st.collectingSince !== null && now - ms(st.collectingSince) > ctx.settings.collection_duration * HOUR) {
    const c = s.cond(701);
    if (!c.open) {
      c.open = true;
      c.since = st.collectingSince;
      s.once(701, st.last ?? { published_at: st.collectingSince, temp1: null, milk_volume: null, agitator_status: null });
    }
  }
  if (st.pickupDue && now >= ms(st.pickupDue.at)) {
    s.once(111, st.pickupDue.data);
    st.pickupDue = null;
  }
};

/**
 * The periodic sweep for one device at `now`: OFFLINE after 15 minutes without a reading, a
 * power cut that reached 5 minutes when the device fell silent on battery, a collection running
 * over its estimated time, a pick-up alert coming due.
 */
export const sweep = (previous: AlertEngineState, now: Date, ctx: AlertContext): EngineStep => {
  const s = new Step(clone(previous));
  const st = s.state;
  const t = now.getTime();
  const seen = st.seenAt ?? st.cursor;
  if (st.last && seen) {
    const c502 = s.cond(502);
    if (!c502.open && t - ms(seen) > ALERT_TUNING.offlineMs) {
      c502.open = true;
      c502.since = seen;
      s.once(502, st.last, { detail: `no data since ${seen}` });
    } else if (!c502.open) {
      delete st.conds['502'];
    }
    const c301 = st.conds['301'];
    if (st.lastOnMains === false && c301 && !c301.open && c301.since && t - ms(c301.since) >= POWER_OUTAGE_ALERT_MINUTES * MIN) {
      c301.open = true;
      s.once(301, st.last);
    }
  }
  timeRules(s, t, ctx);
  return { state: st, raised: s.raised, cleared: s.cleared };
};
