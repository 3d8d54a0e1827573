/**
 * The cooling forecast's accuracy (`npm run evaluate`, and part of `npm run bench`): the
 * simulator's vats over simulated weeks with its random faults (chiller off, power cut, agitator
 * stopped, warm plate, offline), the prediction of shared/compliance/cooling-forecast.ts made 30 and
 * 60 minutes after each milking ended, against when the vat really reached 6 °C. Needs no local
 * stack. Asserts nothing; prints what it measured.
 */
import { COOL_SECOND_LIMIT_C, coolingRuleDeadlines, type TempSample } from '../shared/compliance/cooling-rules';
import { isAtRisk, predictCooling } from '../shared/compliance/cooling-forecast';
import { isMilkingState } from '../shared/telemetry/device-message';
import { INSTALLER_VATS } from '../local/simulator/synthetic';
import { createVatModel } from '../local/simulator/vat-model';
import { percentile } from './percentile';

const MIN = 60_000;

export interface CoolingEvaluation {
  readonly vats: number;
  readonly days: number;
  readonly milkings: number;
  readonly at: Record<number, HorizonFigures>;
}

export interface HorizonFigures {
  /** Milkings still over 6 °C at this horizon that reached it later (before the next milking or collection). */
  readonly cases: number;
  /** Of them, with a crossing predicted: |predicted − actual| in minutes. */
  readonly errors: number[];
  readonly medianMinutes: number;
  readonly p90Minutes: number;
  /** Cases where no crossing was predicted (the milk was not cooling then: a fault). */
  readonly noCrossing: number;
  /** Milkings already at or below 6 °C at the horizon (nothing to predict). */
  readonly alreadyReached: number;
  /** Milkings still over 6 °C at the horizon that did not reach it before the next milking or collection. */
  readonly neverReached: number;
  /** Breach calls (at risk) right: the R2 deadline really missed by over the margin, or not. */
  readonly riskRight: number;
  readonly riskCalls: number;
}


interface MilkingTrace {
  readonly start: number;
  readonly end: number;
  /** Readings from the start until the next milking or collection (or 8 h after the end). */
  readonly readings: TempSample[];
}

/** One vat for `days`: its milkings with their readings. */
const traceVat = (n: number, days: number, faultsPerDay: number): MilkingTrace[] => {
  const row = INSTALLER_VATS[(n * 7) % INSTALLER_VATS.length] ?? INSTALLER_VATS[0];
  if (!row) throw new Error('no installer vat');
  const vat = { vat_size: row.volume, vat_diameter: row.diameter, vat_max_height: row.height, wedgeHeight: 60, vat_volume_offset: 0 };
  const vm = createVatModel({ device: `vm-eval-${n}`, farmKey: `EVAL${n % 5}`, timezone: 'Pacific/Auckland', vat, seed: 100 + n, randomFaultsPerDay: faultsPerDay });
  const out: MilkingTrace[] = [];
  let t = vm.nextTime(Date.parse('2026-05-01T00:00:00Z') + n * 3 * 3_600_000);
  let current: { start: number; end: number | null; readings: TempSample[] } | null = null;
  let lastVolume = vm.volume();
  const close = () => {
    if (current?.end) out.push({ start: current.start, end: current.end, readings: current.readings });
    current = null;
  };
  for (let i = 0; i < days * 1440; i++, t += MIN) {
    const m = vm.step(t);
    const volume = vm.volume();
    const collecting = volume < lastVolume - 0.01 * vat.vat_size;
    lastVolume = volume;
    if (!m) continue;
    const milking = isMilkingState(m.state_machine);
    if (milking && (!current || current.end !== null)) {
      close();
      current = { start: t, end: null, readings: [] };
    }
    if (!current) continue;
    if (collecting || (current.end !== null && t > current.end + 8 * 60 * MIN)) {
      close();
      continue;
    }
    if (!milking && current.end === null) current.end = t;
    current.readings.push({ published_at: m.published_at, temp1: m.temp1 ?? null });
  }
  close();
  return out;
};

export const evaluateCoolingForecast = (opts: { vats?: number; days?: number; faultsPerDay?: number; horizons?: number[] } = {}): CoolingEvaluation => {
  const vats = opts.vats ?? 24;
  const days = opts.days ?? 28;
  const horizons = opts.horizons ?? [30, 60];
  const traces = Array.from({ length: vats }, (_, n) => traceVat(n, days, opts.faultsPerDay ?? 2)).flat();
  const at: Record<number, HorizonFigures> = {};
  for (const h of horizons) {
    const errors: number[] = [];
    let cases = 0;
    let noCrossing = 0;
    let alreadyReached = 0;
    let neverReached = 0;
    let riskRight = 0;
    let riskCalls = 0;
    for (const m of traces) {
      const evalAt = m.end + h * MIN;
      const before = m.readings.filter((r) => Date.parse(r.published_at) <= evalAt);
      const lastBefore = before[before.length - 1];
      if (!lastBefore || lastBefore.temp1 === null || Date.parse(m.readings[m.readings.length - 1]?.published_at ?? '') < evalAt) continue;
      if (lastBefore.temp1 <= COOL_SECOND_LIMIT_C) {
        alreadyReached += 1;
        continue;
      }
      const reached = m.readings.find((r) => Date.parse(r.published_at) > evalAt && r.temp1 !== null && r.temp1 <= COOL_SECOND_LIMIT_C);
      const actual = reached ? Date.parse(reached.published_at) : null;
      const prediction = predictCooling(before, m.end, evalAt);
      if (!prediction) continue;
      const predicted = prediction.at(COOL_SECOND_LIMIT_C);
      const deadline = coolingRuleDeadlines(m.start, m.end).R2;
      if (evalAt < deadline) {
        riskCalls += 1;
        const called = isAtRisk(predicted, deadline, evalAt);
        const missed = actual === null || actual > deadline;
        if (called === missed) riskRight += 1;
      }
      if (actual === null) {
        neverReached += 1;
        continue;
      }
      cases += 1;
      if (predicted === null) noCrossing += 1;
      else errors.push(Math.abs(predicted - actual) / MIN);
    }
    errors.sort((a, b) => a - b);
    at[h] = { cases, errors, medianMinutes: percentile(errors, 50), p90Minutes: percentile(errors, 90), noCrossing, alreadyReached, neverReached, riskRight, riskCalls };
  }
  return { vats, days, milkings: traces.length, at };
};

export const benchCoolingForecast = (opts?: Parameters<typeof evaluateCoolingForecast>[0]) => {
  const started = Date.now();
  const r = evaluateCoolingForecast(opts);
  console.log(`cooling forecast: ${r.vats} simulated vats x ${r.days} days, random faults, ${r.milkings} milkings (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const [h, f] of Object.entries(r.at)) {
    console.log(
      `  ${h} min after milking end: predicted 6 °C time error median ${f.medianMinutes.toFixed(1)} min, p90 ${f.p90Minutes.toFixed(1)} min ` +
        `(${f.errors.length} of ${f.cases} milkings still over 6 °C that reached it later; ${f.noCrossing} predicted no crossing; ` +
        `${f.alreadyReached} already at 6 °C; ${f.neverReached} not at 6 °C before the next milking or collection; ` +
        `at-risk call right ${f.riskRight} of ${f.riskCalls})`,
    );
  }
  return r;
};
