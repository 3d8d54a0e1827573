import { ALERT } from '../types';
import { HOUR, ms, type TimeRule } from './step';

/** A collection running past the farmer's `collection_duration` hours (701, Pro): raised once, closed when the collection ends. */
export const collectionOverrun: TimeRule = (s, now, ctx) => {
  const st = s.state;
  if (!ctx.pro || st.collectingSince === null || now - ms(st.collectingSince) <= ctx.settings.collection_duration * HOUR) return;
  if (s.isOpen(ALERT.collectionOverrun)) return;
  s.openOnce(ALERT.collectionOverrun, st.last ?? { published_at: st.collectingSince, temp1: null, milk_volume: null, agitator_status: null }, st.collectingSince);
};

/** The pick-up alert (111) coming due after a collection emptied the vat (./collection.ts sets it). */
export const pickUpDue: TimeRule = (s, now) => {
  const st = s.state;
  if (!st.pickupDue || now < ms(st.pickupDue.at)) return;
  s.once(ALERT.pickUp, st.pickupDue.data);
  st.pickupDue = null;
};
