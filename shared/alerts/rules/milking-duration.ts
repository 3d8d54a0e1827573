import type { AlertContext, Milking } from '../engine-state';
import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import { MIN, ms, type RuleReading, type Step } from './step';

/**
 * Milking duration variance (601, Pro and Auto): a milking that took longer or shorter than the
 * mean of the recent ones by more than the farmer's setting (`milk_duration` minutes).
 */
export const milkingDuration = (s: Step, r: RuleReading, ctx: AlertContext, milking: Milking) => {
  const st = s.state;
  const minutes = (r.now - ms(milking.start)) / MIN;
  if (ctx.pro && st.durations.length >= 2) {
    const mean = st.durations.reduce((a, b) => a + b, 0) / st.durations.length;
    if (Math.abs(minutes - mean) > ctx.settings.milk_duration) {
      s.once(ALERT.milkingDuration, r.data, { detail: `milking took ${Math.round(minutes)} min, usually ${Math.round(mean)} min` });
    }
  }
  st.durations = [...st.durations, minutes].slice(-ALERT_TUNING.milkingHistory);
};
