import { POWER_OUTAGE_ALERT_MINUTES } from '../../constants';
import { ALERT } from '../types';
import { MIN, type ReadingRule } from './step';

/** Power outage (301): mains off for 5 continuous minutes (farmer §9), from the first reading off mains. */
export const powerOutage: ReadingRule = (s, r) => {
  const onMains = r.reading.on_mains;
  if (onMains === null) return;
  s.track(ALERT.powerOutage, r.t, { over: !onMains, normal: onMains, raiseMs: POWER_OUTAGE_ALERT_MINUTES * MIN, clearMs: 0, data: r.data });
  s.state.lastOnMains = onMains;
};
