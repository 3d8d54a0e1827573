import { ALERT } from '../types';
import { capacityAtMilkingEnd } from './capacity';
import { lateMilking } from './late-milking';
import { milkingDuration } from './milking-duration';
import type { ReadingRule } from './step';

/**
 * A milking's start and end (som, milking and eom count as milking, farmer §4). A milking into a
 * (nearly) empty vat is a first milking, to which the 4-hour rule to 10 °C applies. The plate
 * cooler's alert belongs to one milking; at the end the duration (601), lateness (1201) and
 * capacity (202) rules look at the milking just ended.
 */
export const milkingCycle: ReadingRule = (s, r, ctx) => {
  const st = s.state;
  const volume = r.reading.milk_volume;
  if (r.milkingNow && (!st.milking || st.milking.end !== null)) {
    const prevVolume = st.last?.milk_volume ?? volume;
    const first = st.milking === null || prevVolume === null || r.isEmpty(prevVolume);
    st.milking = { start: r.t, end: null, first, startVolume: st.last?.milk_volume ?? volume };
    s.close(ALERT.plateWarm);
  } else if (!r.milkingNow && st.milking && st.milking.end === null) {
    const milking = st.milking;
    milking.end = r.t;
    s.close(ALERT.plateWarm);
    milkingDuration(s, r, ctx, milking);
    lateMilking(s, r, ctx);
    capacityAtMilkingEnd(s, r, ctx, milking);
  }
};
