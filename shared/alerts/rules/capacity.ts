import { emptyCapacityHistory, forecastCapacity, recordMilking } from '../capacity-forecast';
import type { AlertContext, Milking } from '../engine-state';
import { localTime } from '../messages';
import { ALERT } from '../types';
import type { RuleReading, Step } from './step';

/**
 * The capacity forecast at a milking's end (202): the milking joins the history, and when the
 * forecast says the vat fills before the expected pickup, 202 is raised, once per fill cycle: it
 * stays open (a later, kinder forecast does not clear it, so it cannot flap) until a collection
 * empties the vat (./collection.ts).
 */
export const capacityAtMilkingEnd = (s: Step, r: RuleReading, ctx: AlertContext, m: Milking) => {
  const st = s.state;
  const size = ctx.vat.vat_size;
  const volume = r.reading.milk_volume;
  const history = st.capacity ?? emptyCapacityHistory();
  st.capacity = volume !== null && m.startVolume !== null && m.startVolume !== undefined ? recordMilking(history, { start: m.start, end: r.t, added: volume - m.startVolume }, size) : history;
  if (s.isOpen(ALERT.fullBeforePickup)) return;
  const f = forecastCapacity({ now: r.t, volume, vatSize: size, history: st.capacity, submittedPickups: ctx.submittedPickups ?? [], ...(ctx.timezone ? { timeZone: ctx.timezone } : {}) });
  if (!f.fullBeforePickup || !f.atFull || !f.nextPickup) return;
  const zone = ctx.timezone ?? 'UTC';
  s.openOnce(ALERT.fullBeforePickup, r.data, undefined, { detail: `full at about ${localTime(f.atFull, zone)}, next pickup expected ${localTime(f.nextPickup, zone)}` });
};
