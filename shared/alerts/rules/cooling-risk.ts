import { FIT_WINDOW_MINUTES, isAtRisk, predictCooling } from '../../compliance/cooling-forecast';
import { coolingRuleDeadlines, COOL_FIRST_LIMIT_C, COOL_SECOND_LIMIT_C } from '../../compliance/cooling-rules';
import { localHourMinute } from '../messages';
import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import { MIN, ms, type ReadingRule } from './step';

/**
 * Cooling at risk (105): while the milk of an ended milking cools, the forecast of
 * shared/compliance/cooling-forecast.ts (the same fit the vat card shows) from the readings since
 * it ended: raised when the 10 °C or 6 °C time not yet reached is predicted past its §9 deadline by
 * over the margin, or not at all (the milk is not cooling), with the predicted time in its words;
 * cleared when the curve is back on time. The deadline passed, the 101/102 rules take over; a new
 * milking or an empty vat closes it. Raised at most once per milking.
 */
export const coolingRisk: ReadingRule = (s, r, ctx) => {
  const st = s.state;
  const m = st.milking;
  const { t, now, data } = r;
  const temp = r.reading.temp1;
  const cooling = r.hasMilk && !r.milkingNow;
  if (!cooling || !m || m.end === null) {
    if (st.cooling) st.cooling = null;
    s.close(ALERT.coolingAtRisk);
    return;
  }
  const end = ms(m.end);
  const deadlines = coolingRuleDeadlines(ms(m.start), end);
  // Both deadlines passed: the rules themselves (102, 101) speak now; nothing more to forecast.
  if (now >= Math.max(deadlines.R1, deadlines.R2)) {
    if (st.cooling) st.cooling = { milking: m.start, samples: [], raised: true };
    s.close(ALERT.coolingAtRisk);
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
  s.track(ALERT.coolingAtRisk, t, {
    over: risky !== undefined,
    gate: !c.raised,
    normal: onTime,
    raiseMs: ALERT_TUNING.coolingRiskRaiseMs,
    clearMs: ALERT_TUNING.coolingRiskClearMs,
    data,
    ...(detail ? { alert: { detail } } : {}),
  });
  if (s.raised.length > before) c.raised = true;
};
