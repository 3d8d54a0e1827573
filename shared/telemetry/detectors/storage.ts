import { pointOf, type Activity } from '../activities';
import { COLLECTION_EMPTY_FRACTION } from './collection';
import { isOpen, type LatestSlice, type Step, type StepInput } from './types';

export interface StorageState extends LatestSlice {
  /** A volume (or a milking) has been seen: past the start of the stream. */
  readonly seen: boolean;
}

export const initialStorageState = (): StorageState => ({ last: null, seen: false });

/** What the milking and collection detectors made of the same reading. */
interface StorageEvents {
  /** The milking this reading opened, if any. */
  readonly milkingStarted: Activity | null;
  /** The collection this reading closed, if any. */
  readonly collectionEnded: Activity | null;
}

/**
 * Storage: milk held in the vat, the period the farmer's alerts point at. Opens at the start of the
 * first milking after the vat was emptied (the same start point as that milking), or, when the
 * stream starts with milk already in the vat, at its first reading with a volume of at least
 * COLLECTION_EMPTY_FRACTION. Closes where a collection closes (the vat is emptied). Later milkings
 * before a collection add to the same storage.
 */
export const stepStorage = (s: StorageState, { reading: r, vat }: StepInput, e: StorageEvents): Step<StorageState> => {
  const changed: Activity[] = [];
  let last = s.last;
  if (e.collectionEnded !== null && e.collectionEnded.end !== null && isOpen(last)) {
    last = { ...last, end: e.collectionEnded.end };
    changed.push(last);
  }
  if (!isOpen(last)) {
    const midStorage = !s.seen && r.milk_volume !== null && r.milk_volume >= COLLECTION_EMPTY_FRACTION * vat.vat_size;
    const start = e.milkingStarted !== null ? e.milkingStarted.start : midStorage ? pointOf(r) : null;
    if (start !== null) {
      last = { kind: 'storage', start, end: null };
      changed.push(last);
    }
  }
  const seen = s.seen || r.milk_volume !== null || e.milkingStarted !== null;
  return changed.length === 0 && seen === s.seen ? { state: s, changed } : { state: { last, seen }, changed };
};
