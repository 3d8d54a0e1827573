import { isMilkingState } from '../telemetry/device-message';
import type { Reading } from '../telemetry/reading';
import { dataOf, type AlertContext, type AlertEngineState, type Clock, type EngineStep } from './engine-state';
import { agitatorStopped } from './rules/agitator';
import { backOnline } from './rules/back-online';
import { collection } from './rules/collection';
import { controller } from './rules/controller';
import { coolingRisk } from './rules/cooling-risk';
import { collectionOverrun, pickUpDue } from './rules/due-by-time';
import { milkingCycle } from './rules/milking-cycle';
import { plateCooler } from './rules/plate-cooler';
import { powerOutage } from './rules/power';
import { quality } from './rules/quality';
import { silence } from './rules/silence';
import { ms, Step, type ReadingRule, type RuleReading, type TimeRule } from './rules/step';
import { emptyVat, temperature } from './rules/temperature';
import { volumeOver } from './rules/volume';
import { ALERT_TUNING } from './tuning';

/**
 * The alert engine: pure and incremental, like the activity detectors. Each reading steps a small
 * JSON state (`evaluate`), a fold of the rules in ./rules over it; a periodic `sweep` raises the
 * conditions that need no reading to become true (offline, a collection overrunning, a pick-up
 * alert coming due, a power cut when the device then falls silent). Time for reading-driven rules
 * is the reading's own published_at, so a replayed trace gives the same alerts; the sweep is given
 * `now` by its clock. Dedupe and flapping are the trackers' (./rules/step.ts).
 */

/** Rules that come due with time alone: run after every reading and by the sweep. */
const TIME_RULES: readonly TimeRule[] = [collectionOverrun, pickUpDue];

/**
 * The reading rules, in order: each sees the state as the ones before it left it (a milking that
 * starts or ends moves the cooling deadlines the temperature rules read; an emptied vat ends the
 * storage cycle before they run).
 */
const READING_RULES: readonly ReadingRule[] = [
  backOnline,
  milkingCycle,
  collection,
  emptyVat,
  temperature,
  plateCooler,
  volumeOver,
  powerOutage,
  agitatorStopped,
  coolingRisk,
  controller,
  quality,
  (s, r, ctx) => {
    for (const rule of TIME_RULES) rule(s, r.now, ctx);
  },
];

const clone = (s: AlertEngineState): AlertEngineState => JSON.parse(JSON.stringify(s)) as AlertEngineState;

const ruleReading = (r: Reading, ctx: AlertContext): RuleReading => {
  const size = ctx.vat.vat_size;
  const isEmpty = (v: number | null) => v !== null && v < (size * ALERT_TUNING.emptyPercent) / 100;
  return {
    reading: r,
    t: r.published_at,
    now: ms(r.published_at),
    data: dataOf(r),
    milkingNow: isMilkingState(r.state_machine),
    hasMilk: r.milk_volume !== null ? !isEmpty(r.milk_volume) : r.state_machine !== 'empty',
    isEmpty,
  };
};

/** Steps the engine with one reading (in order; an older reading changes nothing). */
export const evaluate = (previous: AlertEngineState, r: Reading, ctx: AlertContext, clock?: Clock): EngineStep => {
  if (previous.cursor !== null && r.published_at <= previous.cursor) return { state: previous, raised: [], cleared: [] };
  const s = new Step(clone(previous));
  const facts = ruleReading(r, ctx);
  for (const rule of READING_RULES) rule(s, facts, ctx);
  const st = s.state;
  st.cursor = facts.t;
  // Without a clock (replays, tests) a reading arrives at its own time.
  st.seenAt = clock ? clock.now().toISOString() : facts.t;
  st.last = facts.data;
  return { state: st, raised: s.raised, cleared: s.cleared };
};

/** The periodic sweep for one device at `now`: the device's silence, then the rules that come due with time. */
export const sweep = (previous: AlertEngineState, now: Date, ctx: AlertContext): EngineStep => {
  const s = new Step(clone(previous));
  silence(s, now.getTime(), ctx);
  for (const rule of TIME_RULES) rule(s, now.getTime(), ctx);
  return { state: s.state, raised: s.raised, cleared: s.cleared };
};
