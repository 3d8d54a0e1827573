import { OUTAGE_GAP_MINUTES } from '../constants';

/**
 * The raw-milk cooling rules of farmer §9, evaluated for one milking from the vat temperature
 * (temp1). The spec paraphrases New Zealand's NZCP1 (Design and Operation of Farm Dairies), whose
 * text settles the one ambiguous "or": milk must
 *   R1 be cooled to 10 °C or below within 4 hours of the start of milking;
 *   R2 be cooled to 6 °C or below within the SOONER of 6 hours from the start or 2 hours from the
 *      end of milking;
 *   R3 then be held at or below 6 °C until collection or the next milking;
 *   R4 not exceed 10 °C during subsequent milkings (those into the same milk, before collection).
 *
 * How each is judged (docs/architecture.md, "Farmer activity API"):
 * - R1/R2 look at the vat at the deadline: the last reading at or before it (no older than the
 *   outage gap, 15 minutes) must be at or below the limit. met_at is when the run of readings at or
 *   below the limit that reaches the deadline began; failed_at is the deadline. "Within" includes
 *   the deadline itself, and "to 10 °C" includes 10.0. Milk collected before the deadline is judged
 *   when the collection began: passed if it was at or below the limit, else not applicable.
 * - R3/R4 must hold at every reading of their window; a reading above the limit fails the rule at
 *   that reading's time. Without a breach, a gap over 15 minutes in the window (an outage) or no
 *   readings near its ends is 'no_data': not knowing is not a pass.
 * - A deadline or window still in the future is 'pending'.
 */
export const COOLING_RULES = ['R1', 'R2', 'R3', 'R4'] as const;
type CoolingRule = (typeof COOLING_RULES)[number];

export const COOL_FIRST_LIMIT_C = 10;
const COOL_FIRST_HOURS = 4;
export const COOL_SECOND_LIMIT_C = 6;
const COOL_SECOND_HOURS_FROM_START = 6;
const COOL_SECOND_HOURS_FROM_END = 2;

/** The rule's wording as the milking detail shows it (farmer §9). */
export const COOLING_RULE_TEXT: Readonly<Record<CoolingRule, string>> = {
  R1: 'Cool to 10°C within four hours of milking start',
  R2: 'Cool to 6°C within six hours of start or two hours after milking ends',
  R3: 'Then hold at or below 6°C',
  R4: 'Not above 10°C during later milkings',
};

export type RuleStatus = 'passed' | 'failed' | 'pending' | 'no_data' | 'not_applicable';

export interface RuleResult {
  readonly rule: CoolingRule;
  readonly text: string;
  readonly status: RuleStatus;
  /** true passed, false failed, null not decided (pending, no data, not applicable). */
  readonly passed: boolean | null;
  /** When the rule was met (passed only). */
  readonly met_at: string | null;
  /** When it was broken: the deadline (R1, R2) or the first reading over the limit (R3, R4). */
  readonly failed_at: string | null;
  /** The deadline (R1, R2) or the end of the window (R3, R4), when known. */
  readonly deadline: string | null;
  readonly detail: string;
}

interface Interval {
  readonly start: string;
  readonly end: string | null;
}

export interface TempSample {
  readonly published_at: string;
  readonly temp1: number | null;
}

export interface CoolingInput {
  /** The milking evaluated. */
  readonly milking: Interval;
  /** The vat's readings from the milking start on, in time order. */
  readonly readings: readonly TempSample[];
  /** Later milkings into the same milk (after this one, before collection), in time order. */
  readonly laterMilkings: readonly Interval[];
  /** Start of the collection that emptied the vat, if it has happened. */
  readonly collectionStart: string | null;
  /** The present: windows that reach past it are pending. */
  readonly now: string;
}

const HOUR = 3_600_000;
const GAP_MS = OUTAGE_GAP_MINUTES * 60_000;
const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

interface Sample {
  readonly t: number;
  readonly v: number;
}

const fmtTime = (t: number) => iso(t).slice(0, 16).replace('T', ' ');

const result = (rule: CoolingRule, r: Omit<RuleResult, 'rule' | 'text' | 'passed'>): RuleResult => ({
  rule,
  text: COOLING_RULE_TEXT[rule],
  passed: r.status === 'passed' ? true : r.status === 'failed' ? false : null,
  ...r,
});

/** "Cooled to `limit` by `deadline`": R1 and R2. */
const cooledBy = (
  rule: CoolingRule,
  samples: readonly Sample[],
  start: number,
  deadline: number,
  limit: number,
  now: number,
  collection: number | null,
): RuleResult => {
  const base = { met_at: null, failed_at: null, deadline: iso(deadline) };
  // Milk collected before the deadline left the farm then: it is judged as it was when the tanker began.
  const collectedFirst = collection !== null && collection < deadline;
  const judgeAt = collectedFirst ? collection : deadline;
  if (now < judgeAt) return result(rule, { ...base, status: 'pending', detail: `Deadline ${fmtTime(deadline)} UTC not reached yet.` });
  let i = -1;
  for (let k = 0; k < samples.length && (samples[k] as Sample).t <= judgeAt; k++) if ((samples[k] as Sample).t >= start) i = k;
  const atDeadline = samples[i];
  if (!atDeadline || judgeAt - atDeadline.t > GAP_MS) {
    return result(rule, { ...base, status: 'no_data', detail: `No vat temperature within ${OUTAGE_GAP_MINUTES} minutes before the deadline.` });
  }
  if (atDeadline.v > limit && collectedFirst) {
    return result(rule, {
      ...base,
      status: 'not_applicable',
      detail: `Collected at ${fmtTime(judgeAt)} UTC, before the deadline, at ${atDeadline.v.toFixed(1)}°C.`,
    });
  }
  if (atDeadline.v > limit) {
    return result(rule, {
      ...base,
      status: 'failed',
      failed_at: iso(deadline),
      detail: `Vat at ${atDeadline.v.toFixed(1)}°C at the deadline ${fmtTime(deadline)} UTC (limit ${limit}°C).`,
    });
  }
  // Back along the run at or below the limit that reaches the deadline.
  let first = i;
  while (first > 0) {
    const prev = samples[first - 1] as Sample;
    if (prev.t < start || prev.v > limit || (samples[first] as Sample).t - prev.t > GAP_MS) break;
    first -= 1;
  }
  const met = (samples[first] as Sample).t;
  return result(rule, { ...base, status: 'passed', met_at: iso(met), detail: `At or below ${limit}°C from ${fmtTime(met)} UTC.` });
};

/**
 * "At or below `limit` throughout [from, to]" (each milking of R4), or [from, to) with `openEnd`
 * (R3: the hold lasts until the next milking or the collection begins, so the reading at that
 * start, already the next milking's warm milk, is not the held milk's).
 */
const heldWithin = (samples: readonly Sample[], from: number, to: number, limit: number, openEnd = false): { breach?: Sample; gap?: true } => {
  const inside = samples.filter((s) => s.t >= from && (openEnd ? s.t < to : s.t <= to));
  const breach = inside.find((s) => s.v > limit);
  if (breach) return { breach };
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last || first.t - from > GAP_MS || to - last.t > GAP_MS) return { gap: true };
  for (let k = 1; k < inside.length; k++) if ((inside[k] as Sample).t - (inside[k - 1] as Sample).t > GAP_MS) return { gap: true };
  return {};
};

/**
 * The deadlines of R1 (10 °C, 4 h from the start) and R2 (6 °C, the sooner of 6 h from the start
 * and 2 h from the end; while the milking is on, 6 h from the start), epoch ms. One definition for
 * the after-the-fact judgement here and the live forecast (./cooling-forecast.ts).
 */
export const coolingRuleDeadlines = (start: number, end: number | null): { readonly R1: number; readonly R2: number } => {
  const fromStart = start + COOL_SECOND_HOURS_FROM_START * HOUR;
  return { R1: start + COOL_FIRST_HOURS * HOUR, R2: end === null ? fromStart : Math.min(fromStart, end + COOL_SECOND_HOURS_FROM_END * HOUR) };
};

/** Evaluates R1 to R4 for one milking. Pure: the same input always gives the same answer. */
export const evaluateCoolingRules = (input: CoolingInput): RuleResult[] => {
  const start = ms(input.milking.start);
  const end = input.milking.end === null ? null : ms(input.milking.end);
  const now = ms(input.now);
  const samples: Sample[] = input.readings
    .filter((r): r is TempSample & { temp1: number } => r.temp1 !== null && Number.isFinite(r.temp1))
    .map((r) => ({ t: ms(r.published_at), v: r.temp1 }))
    .filter((s) => s.t >= start)
    .sort((a, b) => a.t - b.t);

  const collection = input.collectionStart === null ? null : ms(input.collectionStart);
  const deadlines = coolingRuleDeadlines(start, end);
  const r1 = cooledBy('R1', samples, start, deadlines.R1, COOL_FIRST_LIMIT_C, now, collection);

  // The sooner of start + 6 h and end + 2 h. While the milking is still on, its end + 2 h can only
  // come after start + 6 h once 4 h have passed; before then the deadline is not known yet.
  const deadline2 = deadlines.R2;
  const r2 =
    end === null && now < start + (COOL_SECOND_HOURS_FROM_START - COOL_SECOND_HOURS_FROM_END) * HOUR
      ? result('R2', { status: 'pending', met_at: null, failed_at: null, deadline: null, detail: 'The milking has not ended yet.' })
      : cooledBy('R2', samples, start, deadline2, COOL_SECOND_LIMIT_C, now, collection);

  // R3: from the 6 °C deadline until the next milking or the collection, whichever comes first.
  const holdEnds = [input.laterMilkings[0]?.start, input.collectionStart].filter((x): x is string => x !== null && x !== undefined).map(ms);
  const holdEnd = holdEnds.length ? Math.min(...holdEnds) : null;
  let r3: RuleResult;
  const r3base = { met_at: null, failed_at: null, deadline: holdEnd === null ? null : iso(holdEnd) };
  if (holdEnd !== null && holdEnd <= deadline2) {
    r3 = result('R3', { ...r3base, status: 'not_applicable', detail: 'The next milking or the collection began before the 6°C deadline.' });
  } else if (now < deadline2 || r2.status === 'pending') {
    r3 = result('R3', { ...r3base, status: 'pending', detail: 'Starts at the 6°C deadline.' });
  } else {
    const to = Math.min(holdEnd ?? now, now);
    const held = heldWithin(samples, deadline2, to, COOL_SECOND_LIMIT_C, holdEnd !== null && holdEnd <= now);
    if (held.breach) {
      r3 = result('R3', {
        ...r3base,
        status: 'failed',
        failed_at: iso(held.breach.t),
        detail: `Vat at ${held.breach.v.toFixed(1)}°C at ${fmtTime(held.breach.t)} UTC (limit ${COOL_SECOND_LIMIT_C}°C).`,
      });
    } else if (held.gap) {
      r3 = result('R3', { ...r3base, status: 'no_data', detail: `Readings missing for over ${OUTAGE_GAP_MINUTES} minutes while the milk was held.` });
    } else if (holdEnd === null || holdEnd > now) {
      r3 = result('R3', { ...r3base, status: 'pending', detail: `At or below ${COOL_SECOND_LIMIT_C}°C so far; held until the next milking or collection.` });
    } else {
      r3 = result('R3', { ...r3base, status: 'passed', met_at: iso(holdEnd), detail: `Held at or below ${COOL_SECOND_LIMIT_C}°C until ${fmtTime(holdEnd)} UTC.` });
    }
  }

  // R4: every later milking into this milk, until the collection.
  const later = input.laterMilkings.filter((m) => ms(m.start) > (end ?? start) && (input.collectionStart === null || ms(m.start) < ms(input.collectionStart)));
  let r4: RuleResult | undefined;
  let unknown = false;
  let open = input.collectionStart === null || end === null;
  for (const m of later) {
    const mStart = ms(m.start);
    const mEnd = m.end === null ? null : ms(m.end);
    if (mEnd === null) open = true;
    const held = heldWithin(samples, mStart, Math.min(mEnd ?? now, now), COOL_FIRST_LIMIT_C);
    if (held.breach) {
      r4 = result('R4', {
        met_at: null,
        failed_at: iso(held.breach.t),
        deadline: mEnd === null ? null : iso(mEnd),
        status: 'failed',
        detail: `Vat at ${held.breach.v.toFixed(1)}°C at ${fmtTime(held.breach.t)} UTC during the milking of ${fmtTime(mStart)} UTC.`,
      });
      break;
    }
    if (held.gap) unknown = true;
  }
  const lastLater = later[later.length - 1];
  r4 ??= unknown
    ? result('R4', { met_at: null, failed_at: null, deadline: null, status: 'no_data', detail: `Readings missing for over ${OUTAGE_GAP_MINUTES} minutes during a later milking.` })
    : open
      ? result('R4', {
          met_at: null,
          failed_at: null,
          deadline: null,
          status: 'pending',
          detail: later.length ? `Not above 10°C during ${later.length} later milking(s) so far; the milk is not collected yet.` : 'No later milking yet; the milk is not collected yet.',
        })
      : lastLater?.end
        ? result('R4', {
            met_at: lastLater.end,
            failed_at: null,
            deadline: lastLater.end,
            status: 'passed',
            detail: `Not above 10°C during ${later.length} later milking(s).`,
          })
        : result('R4', { met_at: null, failed_at: null, deadline: null, status: 'not_applicable', detail: 'No later milking before the collection.' });

  return [r1, r2, r3, r4];
};
