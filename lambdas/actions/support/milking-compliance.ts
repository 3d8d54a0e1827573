import { evaluateCoolingRules, type RuleResult } from '../../../shared/compliance/cooling-rules';
import type { Reading } from '../../../shared/telemetry/reading';
import type { StoredActivity } from '../../ports/readings';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Collection and the next milkings are looked for this far after a milking (pickups are 1–3 days apart). */
export const HOLD_LOOKAHEAD_DAYS = 4;
const iso = (t: number) => new Date(t).toISOString();

/**
 * What the cooling rules of one milking need besides its readings, from the vat's milkings and
 * collections after it (within HOLD_LOOKAHEAD_DAYS), and the span of readings to read for them.
 * The milking page (FARMER_MILKING_ONE) and the compliance record (FARMER_COMPLIANCE_RECORD) both
 * judge a milking through this and `judgeMilking`, so the two can never disagree.
 */
export const milkingWindow = (activity: StoredActivity, after: readonly StoredActivity[], now: number) => {
  const start = Date.parse(activity.start.published_at);
  const end = activity.end ? Date.parse(activity.end.published_at) : null;
  const lookahead = start + HOLD_LOOKAHEAD_DAYS * DAY;
  const within = after.filter((a) => a.start.published_at > activity.start.published_at && Date.parse(a.start.published_at) <= lookahead);
  const collection = within.filter((a) => a.kind === 'collection').sort((a, b) => a.start.published_at.localeCompare(b.start.published_at))[0];
  const collectionStart = collection?.start.published_at ?? null;
  const laterMilkings = within
    .filter((a) => a.kind === 'milking' && (collectionStart === null || a.start.published_at < collectionStart))
    .sort((a, b) => a.start.published_at.localeCompare(b.start.published_at))
    .map((a) => ({ start: a.start.published_at, end: a.end?.published_at ?? null }));
  // Readings for the rules run to the collection (or the lookahead); the chart shows 6 h after the
  // start or 2 h after the end, whichever is later (its 4 h and 6 h markers and the cooling).
  const chartEnd = Math.max(start + 6 * HOUR, (end ?? start) + 2 * HOUR);
  const evalEnd = Math.min(now, collectionStart ? Date.parse(collectionStart) : Infinity, lookahead);
  return {
    from: activity.start.published_at,
    to: iso(Math.max(evalEnd, Math.min(chartEnd, now))),
    lookahead: iso(lookahead),
    chartEnd,
    collectionStart,
    laterMilkings,
  };
};
export type MilkingWindow = ReturnType<typeof milkingWindow>;

/** The §9 cooling rules of a milking over its window's readings (those from `from` to `to`). */
export const judgeMilking = (activity: StoredActivity, window: MilkingWindow, readings: readonly Reading[], now: number): RuleResult[] =>
  evaluateCoolingRules({
    milking: { start: activity.start.published_at, end: activity.end?.published_at ?? null },
    readings: readings.filter((r) => r.published_at >= window.from && r.published_at <= window.to),
    laterMilkings: window.laterMilkings,
    collectionStart: window.collectionStart,
    now: iso(now),
  });
