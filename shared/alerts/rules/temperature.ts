import { coolingRuleDeadlines, COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '../../compliance/cooling-rules';
import type { Milking } from '../engine-state';
import { ALERT_TUNING } from '../tuning';
import { ALERT, type NotificationType } from '../types';
import { MIN, ms, type ReadingRule } from './step';

const TEMP_TYPES: readonly NotificationType[] = [ALERT.over10, ALERT.over6, ALERT.tooCold, ALERT.slowCool];

/**
 * The cooling deadlines of the current milking (farmer §9 raw milk cooling rules): R1's and R2's
 * from the one definition (shared/compliance/cooling-rules.ts), except that on a later milking the
 * vat may never go above 10 °C, even while milking (R4).
 */
const coolingDeadlines = (m: Milking | null): { to10: number; to6: number } => {
  if (!m) return { to10: -Infinity, to6: -Infinity };
  const start = ms(m.start);
  const { R1, R2 } = coolingRuleDeadlines(start, m.end ? ms(m.end) : null);
  return { to10: m.first ? R1 : start, to6: R2 };
};

/** An empty vat ends the storage cycle: the cooling rules start again at the next milking. */
export const emptyVat: ReadingRule = (s, r) => {
  if (r.hasMilk || r.milkingNow) return;
  s.state.milking = null;
  for (const type of TEMP_TYPES) s.close(type);
};

/**
 * The milk's temperature (temp1) while the vat holds milk: over 10 °C (101) and over 6 °C (102)
 * after their §9 deadlines, too cold (104, the farmer's `milk_cold`), and slow cooling (110, Pro:
 * over `milk_slow_temp` once `milk_slow_peroid` minutes have passed since the milking ended).
 */
export const temperature: ReadingRule = (s, r, ctx) => {
  const temp = r.reading.temp1;
  if (temp === null || !(r.hasMilk || r.milkingNow)) return;
  const T = ALERT_TUNING;
  const { t, now, data } = r;
  const { to10, to6 } = coolingDeadlines(s.state.milking);
  s.track(ALERT.over10, t, { over: temp > COOL_FIRST_LIMIT_C, gate: now >= to10, normal: temp <= COOL_FIRST_LIMIT_C - T.tempClearMargin, raiseMs: T.tempRaiseMs, clearMs: T.tempClearMs, data });
  s.track(ALERT.over6, t, { over: temp > COOL_SECOND_LIMIT_C, gate: now >= to6, normal: temp <= COOL_SECOND_LIMIT_C - T.tempClearMargin, raiseMs: T.tempRaiseMs, clearMs: T.tempClearMs, data });
  s.track(ALERT.tooCold, t, { over: temp < ctx.settings.milk_cold, normal: temp >= ctx.settings.milk_cold + T.tempClearMargin, raiseMs: T.coldRaiseMs, clearMs: T.tempClearMs, data });
  if (!ctx.pro) return;
  const m = s.state.milking;
  const due = m?.end ? now >= ms(m.end) + ctx.settings.milk_slow_peroid * MIN : false;
  s.track(ALERT.slowCool, t, { over: temp > ctx.settings.milk_slow_temp, gate: due, normal: temp <= ctx.settings.milk_slow_temp - T.tempClearMargin, raiseMs: 0, clearMs: T.tempClearMs, data });
};
