import { describe, expect, it } from 'vitest';
import { evaluateCoolingRules, type CoolingInput, type TempSample } from './cooling-rules';

const T0 = Date.parse('2026-11-20T04:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** One reading a minute from the milking start for `minutes`, temperature by minute. */
const trace = (minutes: number, temp: (m: number) => number | null): TempSample[] =>
  Array.from({ length: minutes + 1 }, (_, m) => ({ published_at: at(m), temp1: temp(m) }));

/** A vat warming to 14 °C during a 2-hour milking, then cooling 0.1 °C a minute down to 4 °C. */
const goodCooling = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.1));

const input = (over: Partial<CoolingInput>): CoolingInput => ({
  milking: { start: at(0), end: at(120) },
  readings: trace(14 * 60, goodCooling),
  laterMilkings: [{ start: at(12 * 60), end: at(14 * 60 - 30) }],
  collectionStart: at(14 * 60),
  now: at(20 * 60),
  ...over,
});

const byRule = (results: ReturnType<typeof evaluateCoolingRules>) => Object.fromEntries(results.map((r) => [r.rule, r]));

describe('evaluateCoolingRules', () => {
  it('passes every rule for a milking that cools in time, holds and stays cool during the next milking, with the times', () => {
    const r = byRule(evaluateCoolingRules(input({})));
    expect(r.R1).toMatchObject({ status: 'passed', passed: true, met_at: at(160), deadline: at(240) });
    // Deadline: the sooner of start + 6 h (360) and end + 2 h (240).
    expect(r.R2).toMatchObject({ status: 'passed', passed: true, met_at: at(200), deadline: at(240) });
    expect(r.R3).toMatchObject({ status: 'passed', met_at: at(12 * 60), deadline: at(12 * 60) });
    expect(r.R4).toMatchObject({ status: 'passed', met_at: at(14 * 60 - 30) });
  });

  it('fails the 6 °C rule at its deadline when the vat is still above 6 °C then, and R3 with it', () => {
    // Slow cooling: 14 °C at the end of milking, 0.05 °C a minute: 10 °C at 200 min, 6 °C at 280 min.
    const slow = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.05));
    const r = byRule(evaluateCoolingRules(input({ readings: trace(14 * 60, slow) })));
    expect(r.R1).toMatchObject({ status: 'passed', met_at: at(200) });
    expect(r.R2).toMatchObject({ status: 'failed', passed: false, failed_at: at(240), met_at: null });
    expect(r.R2?.detail).toContain('8.0°C');
    expect(r.R3).toMatchObject({ status: 'failed', failed_at: at(240) });
  });

  it('takes start + 6 h as the 6 °C deadline when the milking is longer than 4 hours', () => {
    const long = (m: number) => (m <= 300 ? 8 : Math.max(4, 8 - (m - 300) * 0.1));
    const r = byRule(evaluateCoolingRules(input({ milking: { start: at(0), end: at(300) }, readings: trace(14 * 60, long) })));
    expect(r.R2).toMatchObject({ status: 'passed', deadline: at(360), met_at: at(320) });
  });

  it('counts a reading exactly at the deadline at exactly the limit as in time', () => {
    // 10.0 °C at 240 min (the R1 deadline) after being above it; 6.0 °C exactly at 240 too is impossible, so R2 fails.
    const edge = (m: number) => (m < 240 ? 12 : 10);
    const r = byRule(evaluateCoolingRules(input({ readings: trace(300, edge), laterMilkings: [], collectionStart: null })));
    expect(r.R1).toMatchObject({ status: 'passed', met_at: at(240) });
    const justLate = byRule(evaluateCoolingRules(input({ readings: trace(300, (m) => (m <= 240 ? 10.1 : 5)), laterMilkings: [], collectionStart: null })));
    expect(justLate.R1).toMatchObject({ status: 'failed', failed_at: at(240) });
    const sixAtDeadline = byRule(evaluateCoolingRules(input({ readings: trace(300, (m) => (m < 240 ? 9 : 6)), laterMilkings: [], collectionStart: null })));
    expect(sixAtDeadline.R2).toMatchObject({ status: 'passed', met_at: at(240) });
  });

  it('answers no data, not a pass, when an outage covers the deadline', () => {
    const readings = trace(14 * 60, goodCooling).filter((_, m) => m < 150 || m > 260);
    const r = byRule(evaluateCoolingRules(input({ readings })));
    expect(r.R1).toMatchObject({ status: 'no_data', passed: null });
    expect(r.R2).toMatchObject({ status: 'no_data', passed: null });
  });

  it('answers no data for the hold when readings stop for over 15 minutes, but a breach seen is still a failure', () => {
    const gap = trace(14 * 60, goodCooling).filter((_, m) => m < 400 || m > 430);
    expect(byRule(evaluateCoolingRules(input({ readings: gap }))).R3).toMatchObject({ status: 'no_data' });
    const warm = trace(14 * 60, (m) => (m >= 500 && m < 510 ? 7.5 : goodCooling(m))).filter((_, m) => m < 400 || m > 430);
    expect(byRule(evaluateCoolingRules(input({ readings: warm }))).R3).toMatchObject({ status: 'failed', failed_at: at(500) });
  });

  it("ends the hold as the next milking begins: that milking's first, warm, reading is not a breach of R3", () => {
    // The reading at 12:00 (the next milking's start) already shows its warm milk at 7.5 °C.
    const warmStart = (m: number) => (m === 12 * 60 ? 7.5 : goodCooling(m));
    const r = byRule(evaluateCoolingRules(input({ readings: trace(14 * 60, warmStart) })));
    expect(r.R3).toMatchObject({ status: 'passed', met_at: at(12 * 60) });
    // One minute before it is still the held milk's.
    const warmBefore = (m: number) => (m === 12 * 60 - 1 ? 7.5 : goodCooling(m));
    expect(byRule(evaluateCoolingRules(input({ readings: trace(14 * 60, warmBefore) }))).R3).toMatchObject({ status: 'failed', failed_at: at(12 * 60 - 1) });
  });

  it('fails R4 when a later milking warms the vat over 10 °C', () => {
    const warmLater = (m: number) => (m >= 12 * 60 + 20 && m < 12 * 60 + 40 ? 10.5 : goodCooling(m));
    const r = byRule(evaluateCoolingRules(input({ readings: trace(14 * 60, warmLater) })));
    expect(r.R4).toMatchObject({ status: 'failed', failed_at: at(12 * 60 + 20) });
  });

  it('is pending before the deadlines and while the milk is not collected', () => {
    const r = byRule(evaluateCoolingRules(input({ readings: trace(90, goodCooling), milking: { start: at(0), end: null }, laterMilkings: [], collectionStart: null, now: at(90) })));
    expect(r.R1?.status).toBe('pending');
    expect(r.R2?.status).toBe('pending');
    expect(r.R3?.status).toBe('pending');
    expect(r.R4?.status).toBe('pending');
  });

  it('judges milk collected before the deadline as it was when the tanker began', () => {
    // Collected at 170 min: 9 °C then (R1 met), above 6 °C (R2 not applicable); readings after are an empty vat.
    const r = byRule(evaluateCoolingRules(input({ readings: trace(400, (m) => (m <= 170 ? goodCooling(m) : 12)), laterMilkings: [], collectionStart: at(170) })));
    expect(r.R1).toMatchObject({ status: 'passed', met_at: at(160) });
    expect(r.R2).toMatchObject({ status: 'not_applicable', passed: null });
    expect(r.R2?.detail).toContain('before the deadline');
  });

  it('ignores readings without a vat temperature', () => {
    const r = byRule(evaluateCoolingRules(input({ readings: trace(14 * 60, (m) => (m % 2 === 1 ? null : goodCooling(m))) })));
    expect(r.R1).toMatchObject({ status: 'passed', met_at: at(160) });
  });
});
