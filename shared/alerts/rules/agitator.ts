import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import type { ReadingRule } from './step';

/** Agitator stopped (401): off for 40 minutes while the vat holds milk and no tanker is pumping. */
export const agitatorStopped: ReadingRule = (s, r) => {
  const status = r.reading.agitator_status;
  if (status === null) return;
  s.track(ALERT.agitatorStopped, r.t, {
    over: status === 0 && r.hasMilk && s.state.collectingSince === null,
    normal: status === 1 || !r.hasMilk,
    raiseMs: ALERT_TUNING.agitatorStopMs,
    clearMs: 0,
    data: r.data,
  });
};
