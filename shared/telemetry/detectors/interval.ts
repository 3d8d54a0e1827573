import { pointOf, type Activity, type ActivityKind } from '../activities';
import type { Reading } from '../reading';
import { isOpen, unchanged, type LatestSlice, type Step } from './types';

/**
 * The shape shared by the detectors whose activity runs from one condition to another (agitator
 * stop, battery off, CIP): open at the first reading where `starts` holds, close at the first later
 * reading where `ends` holds. A reading where neither holds (a null sensor value) changes nothing.
 */
export const stepInterval = (kind: ActivityKind, s: LatestSlice, r: Reading, starts: boolean, ends: boolean): Step<LatestSlice> => {
  if (isOpen(s.last)) {
    if (!ends) return unchanged(s);
    const closed: Activity = { ...s.last, end: pointOf(r) };
    return { state: { last: closed }, changed: [closed] };
  }
  if (!starts) return unchanged(s);
  const opened: Activity = { kind, start: pointOf(r), end: null };
  return { state: { last: opened }, changed: [opened] };
};

export const initialLatest = (): LatestSlice => ({ last: null });
