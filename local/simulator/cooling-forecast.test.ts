import { describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/alerts/engine';
import { initialAlertState, type AlertContext } from '../../shared/alerts/engine-state';
import { DEFAULT_ALERT_SETTINGS } from '../../shared/alerts/settings';
import { forecastCooling, predictCooling } from '../../shared/compliance/cooling-forecast';
import type { TempSample } from '../../shared/compliance/cooling-rules';
import { isMilkingState, telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { toReading, type Reading } from '../../shared/telemetry/reading';
import type { FaultKind } from './faults';
import { createVatModel } from './vat-model';

/**
 * The cooling forecast on traces recorded from the simulator's vat model, healthy and
 * with the chiller off, and the 'Cooling at risk' alert (105) the engine raises from it.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const VAT = { vat_size: 9100, vat_diameter: 2337, vat_max_height: 2438, wedgeHeight: 60, vat_volume_offset: 0 };
const START = Date.parse('2026-06-01T12:00:00Z');
const ctx: AlertContext = { vat: VAT, settings: DEFAULT_ALERT_SETTINGS, pro: false, dairyCompany: false, auto: false, timezone: 'Pacific/Auckland' };

interface Trace {
  readonly readings: Reading[];
  /** Milkings as the engine sees them: from the first milking reading to the first one after. */
  readonly milkings: { start: number; end: number }[];
}

const record = (minutes: number, faults: readonly { kind: FaultKind; from: number; minutes: number }[] = []): Trace => {
  const vm = createVatModel({ device: 'vm-forecast-1', farmKey: 'FORECAST', timezone: 'Pacific/Auckland', vat: VAT, seed: 11 });
  let t = vm.nextTime(START);
  for (const f of faults) vm.inject(f.kind, f.minutes, f.from);
  const readings: Reading[] = [];
  const milkings: { start: number; end: number }[] = [];
  let open: number | null = null;
  for (let i = 0; i < minutes; i++, t += MIN) {
    const m = vm.step(t);
    if (!m) continue;
    const milking = isMilkingState(m.state_machine);
    if (milking && open === null) open = t;
    if (!milking && open !== null) {
      milkings.push({ start: open, end: t });
      open = null;
    }
    readings.push(toReading(telemetryMessageSchema.parse(m), VAT));
  }
  return { readings, milkings };
};

const healthy = record(3 * 1440);
// The second milking of the trace: the simulator's session times are the same with or without faults.
const milking = healthy.milkings[1] as { start: number; end: number };
const deadline6 = Math.min(milking.start + 6 * HOUR, milking.end + 2 * HOUR);

const samples = (trace: Trace, upTo: number): TempSample[] => trace.readings.filter((r) => Date.parse(r.published_at) <= upTo).map((r) => ({ published_at: r.published_at, temp1: r.temp1 }));
const firstAtOrBelow = (trace: Trace, limit: number, after: number) => {
  const r = trace.readings.find((x) => Date.parse(x.published_at) > after && x.temp1 !== null && x.temp1 <= limit);
  return r ? Date.parse(r.published_at) : null;
};
const forecastAt = (trace: Trace, now: number) =>
  forecastCooling({
    milking: { start: new Date(milking.start).toISOString(), end: new Date(milking.end).toISOString() },
    readings: samples(trace, now).filter((r) => Date.parse(r.published_at) >= milking.start),
    now: new Date(now).toISOString(),
  });

const alerts = (trace: Trace) => {
  let state = initialAlertState();
  const raised: { type: number; at: number; detail?: string }[] = [];
  const cleared: { type: number; at: number }[] = [];
  for (const r of trace.readings) {
    const step = evaluate(state, r, ctx);
    state = step.state;
    const at = Date.parse(r.published_at);
    raised.push(...step.raised.map((a) => ({ type: a.type, at, ...(a.detail ? { detail: a.detail } : {}) })));
    cleared.push(...step.cleared.map((type) => ({ type, at })));
  }
  return { raised, cleared };
};

describe('the exponential fit', () => {
  const series = (f: (minute: number) => number, minutes: number): TempSample[] =>
    Array.from({ length: minutes + 1 }, (_, k) => ({ published_at: new Date(START + k * MIN).toISOString(), temp1: Math.round(f(k) * 10) / 10 }));

  it('finds the 6 °C time of Newton cooling toward a 3 °C coolant (readings rounded to 0.1 °C, as sent)', () => {
    const curve = (k: number) => 3 + 12 * Math.exp(-k / 70);
    const truth = START + -70 * Math.log(3 / 12) * MIN; // 97 minutes
    const error = (now: number) => Math.abs((predictCooling(series(curve, now), START, START + now * MIN)?.at(6) ?? 0) - truth) / MIN;
    // 37 minutes ahead: within a minute; 57 ahead, the 0.1 °C steps blur the curvature: within 15.
    expect(error(60)).toBeLessThan(1);
    expect(error(40)).toBeLessThan(15);
    expect(predictCooling(series(curve, 60), START, START + 60 * MIN)?.fit).toMatchObject({ rate_per_hour: expect.any(Number), readings: 31 });
    expect(predictCooling(series(curve, 60), START, START + 60 * MIN)?.fit.rate_per_hour).toBeLessThan(0);
  });

  it('predicts no crossing for milk that warms or levels off above the limit', () => {
    expect(predictCooling(series((k) => 8 + k * 0.02, 40), START, START + 40 * MIN)?.at(6)).toBeNull();
    expect(predictCooling(series((k) => 7 + 5 * Math.exp(-k / 10), 40), START, START + 40 * MIN)?.at(6)).toBeNull();
  });

  it('waits for 10 minutes of readings after the milking ended', () => {
    expect(predictCooling(series((k) => 14 - k * 0.1, 40), START + 35 * MIN, START + 40 * MIN)).toBeNull();
  });
});

describe('the cooling forecast on simulator traces', () => {
  it('a healthy milking: the deadlines of the §9 rules, and no risk', () => {
    const f = forecastAt(healthy, milking.end + 30 * MIN);
    expect(f.targets.map((x) => [x.rule, x.limit, x.deadline])).toEqual([
      ['R1', 10, new Date(milking.start + 4 * HOUR).toISOString()],
      ['R2', 6, new Date(deadline6).toISOString()],
    ]);
    expect(f.targets.some((x) => x.at_risk)).toBe(false);
  });

  it('milk warm at the milking end (chiller off during it) cooling again: the 6 °C time within 10 minutes, on time', () => {
    const trace = record(3 * 1440, [{ kind: 'chiller_off', from: milking.start + 20 * MIN, minutes: Math.round((milking.end - milking.start) / MIN) - 20 }]);
    const now = milking.end + 30 * MIN;
    const actual = firstAtOrBelow(trace, 6, now);
    const f = forecastAt(trace, now);
    const r2 = f.targets[1];
    expect(r2?.reached_at).toBeNull();
    expect(actual).not.toBeNull();
    expect(Math.abs(Date.parse(r2?.predicted_at ?? '') - (actual as number)) / MIN).toBeLessThan(10);
    expect(r2?.at_risk).toBe(false);
  });

  it('chiller off from before the milking ended: no 6 °C time, at risk, an hour before the deadline', () => {
    const trace = record(3 * 1440, [{ kind: 'chiller_off', from: milking.end - 30 * MIN, minutes: 6 * 60 }]);
    const f = forecastAt(trace, milking.end + 60 * MIN);
    expect(f.fit?.rate_per_hour).toBeGreaterThan(-0.5);
    expect(f.targets[1]).toMatchObject({ rule: 'R2', reached_at: null, predicted_at: null, at_risk: true });
    expect(deadline6 - (milking.end + 60 * MIN)).toBeGreaterThanOrEqual(55 * MIN);
  });
});

describe("'Cooling at risk' (105) from the engine", () => {
  it('healthy vat over three days: never', () => {
    expect(alerts(healthy).raised.filter((a) => a.type === 105)).toEqual([]);
  });

  it('chiller off after a milking: raised once, before the 6 °C rule fails, with the predicted time and deadline', () => {
    const trace = record(3 * 1440, [{ kind: 'chiller_off', from: milking.end - 30 * MIN, minutes: 6 * 60 }]);
    const { raised } = alerts(trace);
    const risk = raised.filter((a) => a.type === 105);
    expect(risk).toHaveLength(1);
    const [alert] = risk;
    expect(alert?.at).toBeLessThan(deadline6);
    expect(alert?.at).toBeGreaterThan(milking.end);
    const local = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(deadline6);
    expect(alert?.detail).toBe(`6C not predicted (not cooling), deadline ${local}`);
    // The rule itself fails later: 102 at its deadline.
    expect(raised.find((a) => a.type === 102)?.at).toBeGreaterThanOrEqual(deadline6);
  });

  it('chiller back on in time: raised once, cleared when the curve recovers, not raised again that milking', () => {
    const trace = record(3 * 1440, [{ kind: 'chiller_off', from: milking.end - 30 * MIN, minutes: 80 }]);
    const { raised, cleared } = alerts(trace);
    const risk = raised.filter((a) => a.type === 105);
    expect(risk).toHaveLength(1);
    const clear = cleared.find((c) => c.type === 105);
    expect(clear?.at).toBeGreaterThan(risk[0]?.at ?? Infinity);
    expect(clear?.at).toBeLessThan(deadline6);
    expect(raised.filter((a) => a.type === 102)).toEqual([]);
  });
});
