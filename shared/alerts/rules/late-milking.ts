import { localMinuteOfDay, wrapMinutes } from '../../time/local-day';
import type { AlertContext } from '../engine-state';
import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import { MIN, type RuleReading, type Step } from './step';

/**
 * Late milking (1201, dairy-company farms): with the farm's imported milking window, a milking of
 * that session ending over `buffer_duration` minutes after `end_of_milking` (farm time); without
 * one, ending over an hour later than the same session's earlier milkings ended.
 */
export const lateMilking = (s: Step, r: RuleReading, ctx: AlertContext) => {
  const st = s.state;
  const T = ALERT_TUNING;
  const { now, t, data } = r;
  const endMinute = Math.floor((now % 86_400_000) / MIN);
  const window = ctx.milkingWindow;
  const [wh, wm] = (window?.end_of_milking ?? '').split(':').map(Number);
  // The imported window's session: this milking ended within the session window of its end.
  const windowLate = window && wh !== undefined && wm !== undefined ? wrapMinutes(localMinuteOfDay(now, window.timezone), wh * 60 + wm) : undefined;
  if (ctx.dairyCompany && window && windowLate !== undefined && Math.abs(windowLate) <= T.sessionWindowMinutes) {
    if (windowLate > window.buffer_duration) {
      s.once(ALERT.lateMilking, data, {
        lateMilking: { end_time_current: t, end_time_schedule: new Date(now - windowLate * MIN).toISOString() },
        detail: `milking ended ${windowLate} min after the end of milking (${window.end_of_milking}, buffer ${window.buffer_duration} min)`,
      });
    }
  } else if (ctx.dairyCompany) {
    // Signed difference to each earlier end of the same session, wrapping at midnight.
    const diffs = (st.ends ?? []).map((e) => wrapMinutes(endMinute, e)).filter((d) => Math.abs(d) <= T.sessionWindowMinutes);
    if (diffs.length >= 2) {
      const late = diffs.reduce((a, b) => a + b, 0) / diffs.length;
      if (late > T.lateMilkingMinutes) {
        s.once(ALERT.lateMilking, data, {
          lateMilking: { end_time_current: t, end_time_schedule: new Date(now - Math.round(late) * MIN).toISOString() },
          detail: `milking ended ${Math.round(late)} min later than usual`,
        });
      }
    }
  }
  st.ends = [...(st.ends ?? []), endMinute].slice(-2 * T.milkingHistory);
};
