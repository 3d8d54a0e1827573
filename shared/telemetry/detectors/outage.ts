import { OUTAGE_GAP_MINUTES } from '../../constants';
import { pointOf, type Activity } from '../activities';
import { msBetween, unchanged, type LatestSlice, type Step, type StepInput } from './types';

/** Spec §9: an outage is a gap between consecutive readings of more than 15 minutes (exactly 15 is not). */
const OUTAGE_GAP_MS = OUTAGE_GAP_MINUTES * 60_000;

export type OutageState = LatestSlice;

/**
 * Outage: when this reading comes more than OUTAGE_GAP_MINUTES after the previous one, an outage
 * from the previous reading to this one, closed at once (it is only known when it is over).
 */
export const stepOutage = (s: OutageState, { reading: r, previous }: StepInput): Step<OutageState> => {
  if (previous === null || msBetween(previous.published_at, r.published_at) <= OUTAGE_GAP_MS) return unchanged(s);
  const outage: Activity = { kind: 'outage', start: previous, end: pointOf(r) };
  return { state: { last: outage }, changed: [outage] };
};
