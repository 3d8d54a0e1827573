import { COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C, coolingRuleDeadlines, type TempSample } from './cooling-rules';

/**
 * The cooling compliance clock: while a vat cools after a milking, each first-cooling
 * rule of farmer §9 (R1: 10 °C within 4 h of the start; R2: 6 °C within the sooner of 6 h from the
 * start and 2 h from the end; deadlines from ./cooling-rules.ts) gets its deadline and a predicted
 * time the vat reaches its limit.
 *
 * The prediction (docs/architecture.md, "Cooling forecast"): the vat temperature of the last
 * FIT_WINDOW minutes of readings (up to the newest) since the milking ended is fitted with
 *     T(t) = A + B·e^(−t/τ)
 * (Newton cooling toward the coolant, or warming toward the dairy when the chiller is off: A is the
 * asymptote) by least squares: for each τ of a log-spaced grid, A and B are a linear fit; the τ with
 * the least squared error wins, the straight line (τ → ∞: a chiller taking a fixed power out of the
 * milk, as a refrigerated vat does above its thermostat) included. The crossing of the limit is
 * solved from the fitted curve. A curve that levels off above the limit, or warms, predicts no
 * crossing (null). Pure: the same readings always give the same forecast.
 */

const MIN = 60_000;

/** Readings of the fit: the last 30 minutes of them (to the newest) since the milking ended (a chiller going off or on shows within it). */
export const FIT_WINDOW_MINUTES = 30;
/** Fewest minutes of readings, and readings, before a prediction is made. */
const FIT_MIN_MINUTES = 10;
const FIT_MIN_READINGS = 6;
/** A crossing further ahead than this is no crossing (the milk is not cooling). */
const HORIZON_HOURS = 24;
/**
 * A prediction past its deadline by more than this is a risk ('Cooling at risk', 105). From the
 * measured error (`npm run evaluate`): the 90th percentile at 30 minutes after the milking ended.
 */
const RISK_MARGIN_MINUTES = 15;

/** τ grid, minutes: 5 to 3000, 36 per decade. */
const TAUS: readonly number[] = Array.from({ length: 101 }, (_, i) => 5 * 10 ** (i / 36));

interface CoolingFit {
  /** The asymptote A (°C); null for the straight line. */
  readonly asymptote: number | null;
  /** τ (minutes); null for the straight line. */
  readonly tau_minutes: number | null;
  /** The fitted curve's slope now, °C per hour (negative: cooling). */
  readonly rate_per_hour: number;
  /** Root-mean-square residual of the fit, °C. */
  readonly rmse: number;
  readonly readings: number;
}

interface Point {
  readonly t: number;
  readonly v: number;
}

interface Model {
  readonly at: (tMin: number) => number;
  readonly slope: (tMin: number) => number;
  readonly cross: (limit: number, fromMin: number) => number | null;
  readonly fit: Omit<CoolingFit, 'rate_per_hour' | 'readings'>;
}

/** Least squares of v ≈ a + b·x. */
const linear = (xs: readonly number[], vs: readonly number[]): { a: number; b: number; sse: number } | null => {
  const n = xs.length;
  let sx = 0;
  let sv = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] as number;
    sv += vs[i] as number;
  }
  const mx = sx / n;
  const mv = sv / n;
  let sxx = 0;
  let sxv = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    sxx += dx * dx;
    sxv += dx * ((vs[i] as number) - mv);
  }
  if (sxx < 1e-12) return null;
  const b = sxv / sxx;
  const a = mv - b * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += ((vs[i] as number) - a - b * (xs[i] as number)) ** 2;
  return { a, b, sse };
};

/** The best curve through the points (t in minutes from the first). */
const fitCurve = (pts: readonly Point[]): Model | null => {
  const ts = pts.map((p) => p.t);
  const vs = pts.map((p) => p.v);
  const line = linear(ts, vs);
  if (!line) return null;
  let best: Model = {
    at: (t) => line.a + line.b * t,
    slope: () => line.b,
    cross: (limit, from) => {
      if (line.b === 0) return null;
      const t = (limit - line.a) / line.b;
      return t >= from ? t : null;
    },
    fit: { asymptote: null, tau_minutes: null, rmse: Math.sqrt(line.sse / pts.length) },
  };
  let bestSse = line.sse;
  for (const tau of TAUS) {
    const f = linear(
      ts.map((t) => Math.exp(-t / tau)),
      vs,
    );
    // Ties go to the straight line (fewer assumptions): an exponential must fit clearly better.
    if (!f || f.sse >= bestSse * 0.98) continue;
    const { a, b } = f;
    bestSse = f.sse;
    best = {
      at: (t) => a + b * Math.exp(-t / tau),
      slope: (t) => (-b / tau) * Math.exp(-t / tau),
      cross: (limit, from) => {
        const x = (limit - a) / b;
        if (!(x > 0) || b === 0) return null;
        const t = -tau * Math.log(x);
        return t >= from ? t : null;
      },
      fit: { asymptote: a, tau_minutes: tau, rmse: Math.sqrt(f.sse / pts.length) },
    };
  }
  return best;
};

interface CoolingPrediction {
  /** When the vat is predicted to reach each limit (epoch ms); null: not within the horizon. */
  readonly at: (limit: number) => number | null;
  readonly fit: CoolingFit;
}

/**
 * Fits the readings since the milking ended (at `end`, epoch ms) up to `now` and predicts the
 * crossings; null until FIT_MIN_MINUTES and FIT_MIN_READINGS of readings are there.
 */
export const predictCooling = (readings: readonly TempSample[], end: number, now: number): CoolingPrediction | null => {
  const all: Point[] = [];
  for (const r of readings) {
    const t = Date.parse(r.published_at);
    if (r.temp1 === null || !Number.isFinite(r.temp1) || t < end || t > now) continue;
    all.push({ t, v: r.temp1 });
  }
  // The window ends at the newest reading, not at now: the same readings give the same forecast
  // whenever it is asked for (the card between two readings, the engine at a reading).
  const newest = all.reduce((m, p) => Math.max(m, p.t), -Infinity);
  const pts = all.filter((p) => p.t >= newest - FIT_WINDOW_MINUTES * MIN).sort((a, b) => a.t - b.t);
  const first = pts[0];
  const last = pts[pts.length - 1];
  if (!first || !last || pts.length < FIT_MIN_READINGS || last.t - first.t < FIT_MIN_MINUTES * MIN) return null;
  const t0 = first.t;
  const model = fitCurve(pts.map((p) => ({ t: (p.t - t0) / MIN, v: p.v })));
  if (!model) return null;
  const nowMin = (now - t0) / MIN;
  return {
    at: (limit) => {
      // Already there on the fitted curve: now.
      if (model.at(nowMin) <= limit) return now;
      const t = model.cross(limit, nowMin);
      if (t === null || t - nowMin > HORIZON_HOURS * 60) return null;
      return Math.round(t0 + t * MIN);
    },
    fit: { ...model.fit, rate_per_hour: model.slope(nowMin) * 60, readings: pts.length },
  };
};

export interface CoolingTarget {
  /** The §9 rule (cooling-rules.ts): R1 10 °C, R2 6 °C. */
  readonly rule: 'R1' | 'R2';
  readonly limit: number;
  readonly deadline: string;
  /** When the vat got to the limit (the run at or below it that lasts till now), or null. */
  readonly reached_at: string | null;
  /** The predicted time it gets there (null: no crossing predicted, or already reached). */
  readonly predicted_at: string | null;
  /** Not reached, deadline still ahead, and predicted over RISK_MARGIN_MINUTES late or never. */
  readonly at_risk: boolean;
}

interface CoolingForecast {
  readonly milking_start: string;
  readonly milking_end: string;
  readonly targets: CoolingTarget[];
  /** The fit the predictions come from; null until enough readings. */
  readonly fit: CoolingFit | null;
}

interface CoolingForecastInput {
  readonly milking: { readonly start: string; readonly end: string };
  /** The vat's readings from the milking start on (any order). */
  readonly readings: readonly TempSample[];
  readonly now: string;
}

const isoOf = (t: number) => new Date(t).toISOString();

/** Whether a target not yet reached is at risk: predicted never, or later than its deadline by over the margin. */
export const isAtRisk = (predicted: number | null, deadline: number, now: number): boolean =>
  now < deadline && (predicted === null || predicted > deadline + RISK_MARGIN_MINUTES * MIN);

/** The compliance clock of one ended milking at `now`. */
export const forecastCooling = (input: CoolingForecastInput): CoolingForecast => {
  const start = Date.parse(input.milking.start);
  const end = Date.parse(input.milking.end);
  const now = Date.parse(input.now);
  const deadlines = coolingRuleDeadlines(start, end);
  const samples = input.readings
    .filter((r): r is TempSample & { temp1: number } => r.temp1 !== null && Number.isFinite(r.temp1))
    .map((r) => ({ t: Date.parse(r.published_at), v: r.temp1 }))
    .filter((s) => s.t >= start && s.t <= now)
    .sort((a, b) => a.t - b.t);
  const prediction = predictCooling(input.readings, end, now);
  const target = (rule: 'R1' | 'R2', limit: number): CoolingTarget => {
    const deadline = deadlines[rule];
    // The run at or below the limit reaching the newest reading (after the milking ended).
    let reached: number | null = null;
    for (let i = samples.length - 1; i >= 0; i--) {
      const s = samples[i] as { t: number; v: number };
      if (s.v > limit || s.t < end) break;
      reached = s.t;
    }
    const predicted = reached === null ? (prediction?.at(limit) ?? null) : null;
    return {
      rule,
      limit,
      deadline: isoOf(deadline),
      reached_at: reached === null ? null : isoOf(reached),
      predicted_at: predicted === null ? null : isoOf(predicted),
      at_risk: reached === null && prediction !== null && isAtRisk(predicted, deadline, now),
    };
  };
  return {
    milking_start: input.milking.start,
    milking_end: input.milking.end,
    targets: [target('R1', COOL_FIRST_LIMIT_C), target('R2', COOL_SECOND_LIMIT_C)],
    fit: prediction?.fit ?? null,
  };
};
