import { describe, expect, it } from 'vitest';
import { evaluateCoolingRules, type RuleResult } from '../../shared/compliance/cooling-rules';
import type { Activity } from '../../shared/telemetry/activities';
import { detectAll, initialDetectorState } from '../../shared/telemetry/detect';
import { telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { toReading, type Reading, type VatConfig } from '../../shared/telemetry/reading';
import { createVatModel } from './vat-model';

/**
 * The cooling-rules check on the simulator's vats (the data `npm start` shows): the detectors find
 * the milkings in the model's messages, and the evaluator judges them as FARMER_MILKING_ONE does.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const VAT: VatConfig = { vat_size: 9100, vat_diameter: 2337, vat_max_height: 2438, wedgeHeight: 60, vat_volume_offset: 0 };
const START = Date.parse('2026-06-01T12:00:00Z');

const simulate = (days: number, chillerOffFrom?: number) => {
  const vm = createVatModel({ device: 'vm-cool-1', farmKey: 'COOL1', timezone: 'Pacific/Auckland', vat: VAT, seed: 11 });
  const readings: Reading[] = [];
  let t = vm.nextTime(START);
  for (let i = 0; i < days * 24 * 60; i += 1, t += MINUTE) {
    if (chillerOffFrom !== undefined && t === chillerOffFrom) vm.inject('chiller_off', 12 * 60, t);
    const m = vm.step(t);
    if (m) readings.push(toReading(telemetryMessageSchema.parse(m), VAT));
  }
  const activities = new Map<string, Activity>();
  for (const a of detectAll(initialDetectorState(), readings, VAT).changed) activities.set(`${a.kind}#${a.start.published_at}`, a);
  const all = [...activities.values()].sort((a, b) => a.start.published_at.localeCompare(b.start.published_at));
  return { readings, milkings: all.filter((a) => a.kind === 'milking' && a.end), collections: all.filter((a) => a.kind === 'collection'), end: t };
};

const judge = (sim: ReturnType<typeof simulate>, m: Activity): Record<string, RuleResult> => {
  const start = m.start.published_at;
  const collection = sim.collections.find((c) => c.start.published_at > start);
  const later = sim.milkings.filter((x) => x.start.published_at > start && (!collection || x.start.published_at < collection.start.published_at));
  const results = evaluateCoolingRules({
    milking: { start, end: m.end?.published_at ?? null },
    readings: sim.readings.filter((r) => r.published_at >= start),
    laterMilkings: later.map((x) => ({ start: x.start.published_at, end: x.end?.published_at ?? null })),
    collectionStart: collection?.start.published_at ?? null,
    now: new Date(sim.end).toISOString(),
  });
  return Object.fromEntries(results.map((r) => [r.rule, r]));
};

describe('cooling rules on the simulated vat', () => {
  it('pass for every milking of a healthy vat over four days, with the times they were met', () => {
    const sim = simulate(4);
    const judged = sim.milkings.slice(0, -1).map((m) => judge(sim, m));
    expect(judged.length).toBeGreaterThanOrEqual(6);
    expect(judged.filter((r) => r.R2?.status === 'passed').length).toBeGreaterThanOrEqual(4);
    for (const r of judged) {
      expect(r.R1?.status).toBe('passed');
      // A vat collected soon after milking: R2's deadline never came on the farm.
      expect(['passed', 'not_applicable']).toContain(r.R2?.status);
      if (r.R2?.status === 'passed') expect(r.R2.met_at).not.toBeNull();
      expect(['passed', 'not_applicable']).toContain(r.R3?.status);
      expect(['passed', 'not_applicable', 'pending']).toContain(r.R4?.status);
    }
  });

  it('fail the 6 °C rule, at its deadline, for a milking with the chiller off', () => {
    const healthy = simulate(2);
    const second = healthy.milkings[1];
    if (!second) throw new Error('no second milking');
    const t = Date.parse(second.start.published_at) - 30 * MINUTE;
    const sim = simulate(2, t);
    const m = sim.milkings.find((x) => Math.abs(Date.parse(x.start.published_at) - Date.parse(second.start.published_at)) < HOUR);
    if (!m?.end) throw new Error('milking not found');
    const r = judge(sim, m);
    const deadline = Math.min(Date.parse(m.start.published_at) + 6 * HOUR, Date.parse(m.end.published_at) + 2 * HOUR);
    expect(r.R2).toMatchObject({ status: 'failed', passed: false, failed_at: new Date(deadline).toISOString() });
  });
});
