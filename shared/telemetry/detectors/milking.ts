import { isMilkingState } from '../device-message';
import { pointOf, type Activity, type ActivityPoint } from '../activities';
import type { Reading, VatConfig } from '../reading';
import { isOpen, unchanged, type LatestSlice, type Step, type StepInput } from './types';

/**
 * Farmer §4: "Volume below 5% of vat size at the start of milking is treated as 0". What sits in an
 * empty vat (wash water left in the outlet, radar echo off the floor) reads as tens of litres; the
 * milking's productivity is measured from a true zero.
 */
const MILKING_START_EMPTY_FRACTION = 0.05;

export type MilkingState = LatestSlice;

/** The milking's start point, with the farmer §4 5% rule applied to its volume. */
const milkingStartPoint = (r: Reading, vat: Pick<VatConfig, 'vat_size'>): ActivityPoint => {
  const p = pointOf(r);
  return p.milk_volume !== null && p.milk_volume < MILKING_START_EMPTY_FRACTION * vat.vat_size ? { ...p, milk_volume: 0 } : p;
};

/**
 * Milking (farmer §4: som, milking and eom all count as milking): opens when the state machine goes
 * into a milking state from a non-milking one, closes at the first reading in a non-milking state.
 * A reading without a state (null) changes nothing. The first reading of a stream counts as coming
 * from a non-milking state, so a stream that starts mid-milking still records (the rest of) it.
 */
export const stepMilking = (s: MilkingState, { reading: r, vat }: StepInput): Step<MilkingState> => {
  if (r.state_machine === null) return unchanged(s);
  const milking = isMilkingState(r.state_machine);
  if (isOpen(s.last)) {
    if (milking) return unchanged(s);
    const closed: Activity = { ...s.last, end: pointOf(r) };
    return { state: { last: closed }, changed: [closed] };
  }
  if (!milking) return unchanged(s);
  const opened: Activity = { kind: 'milking', start: milkingStartPoint(r, vat), end: null };
  return { state: { last: opened }, changed: [opened] };
};
