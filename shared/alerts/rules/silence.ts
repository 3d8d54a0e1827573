import { POWER_OUTAGE_ALERT_MINUTES } from '../../constants';
import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import { MIN, ms, type TimeRule } from './step';

/**
 * What the sweep alone can see, with no reading arriving: OFFLINE (502) after 15 minutes without
 * a reading (measured from when the last one arrived, so a device catching up on buffered
 * readings is online), and a power cut (301) that reached 5 minutes when the device fell silent
 * on battery.
 */
export const silence: TimeRule = (s, now) => {
  const st = s.state;
  const seen = st.seenAt ?? st.cursor;
  if (!st.last || !seen) return;
  const offline = s.cond(ALERT.offline);
  if (!offline.open && now - ms(seen) > ALERT_TUNING.offlineMs) {
    s.openOnce(ALERT.offline, st.last, seen, { detail: `no data since ${seen}` });
  } else if (!offline.open) {
    delete st.conds[String(ALERT.offline)];
  }
  const power = st.conds[String(ALERT.powerOutage)];
  if (st.lastOnMains === false && power && !power.open && power.since && now - ms(power.since) >= POWER_OUTAGE_ALERT_MINUTES * MIN) {
    power.open = true;
    s.once(ALERT.powerOutage, st.last);
  }
};
