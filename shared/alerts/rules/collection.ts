import { emptyCapacityHistory, recordPickup } from '../capacity-forecast';
import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import { MIN, type ReadingRule } from './step';

/**
 * A collection: a tanker pumping shows as a fast fall outside milking; it ends when the vat is
 * empty (or a milking starts). An emptied vat sets the pick-up alert (111, Pro) coming due after
 * the farmer's `pick_up_alert` minutes, joins the capacity forecast's history and ends the fill
 * cycle (202); any end closes the overrun alert (701).
 */
export const collection: ReadingRule = (s, r, ctx) => {
  const st = s.state;
  const size = ctx.vat.vat_size;
  const volume = r.reading.milk_volume;
  const prevVolume = st.last?.milk_volume ?? null;
  const falling = volume !== null && prevVolume !== null && !r.isEmpty(prevVolume) && prevVolume - volume >= (size * ALERT_TUNING.collectionDropPercent) / 100;
  if (!r.milkingNow && falling && st.collectingSince === null) st.collectingSince = r.t;
  if (st.collectingSince === null) return;
  const emptied = r.isEmpty(volume) || r.reading.state_machine === 'empty';
  if (!emptied && !r.milkingNow) return;
  if (ctx.pro && emptied) st.pickupDue = { at: new Date(r.now + ctx.settings.pick_up_alert * MIN).toISOString(), data: r.data };
  if (emptied) {
    st.capacity = recordPickup(st.capacity ?? emptyCapacityHistory(), st.collectingSince);
    s.close(ALERT.fullBeforePickup);
  }
  st.collectingSince = null;
  s.close(ALERT.collectionOverrun);
};
