import { pointOf, type Activity, type ActivityPoint } from '../activities';
import type { VatConfig } from '../reading';
import { isOpen, msBetween, unchanged, type LatestSlice, type Step, type StepInput } from './types';

/**
 * Below this share of the vat size the vat counts as emptied. The same 5% as farmer §4's "treated
 * as 0" at milking start: what is left is the outlet and the radar's floor echo, not milk.
 */
export const COLLECTION_EMPTY_FRACTION = 0.05;
/**
 * A collection takes at least this share of the vat size out. Without it, sensor noise around the
 * near-empty line (a vat holding 5.5% reading 4.9%) would be a "collection".
 */
const COLLECTION_MIN_FALL_FRACTION = 0.05;
/**
 * Changes in volume up to this share of the vat size (and at least COLLECTION_NOISE_MIN_LITRES) are
 * noise: agitator ripple and foam move the radar's surface by several millimetres, about 7 L per mm
 * on a 3 m vat. 0.5% is 100 L on a 20,000 L vat, a tenth of what a tanker pumps in a minute.
 */
const COLLECTION_NOISE_FRACTION = 0.005;
const COLLECTION_NOISE_MIN_LITRES = 20;
/**
 * A tanker pumps 1,000 to 2,000 L/min. A change faster than twice that (two pumps, clock jitter)
 * between readings is the radar losing the surface (foam, condensation), not milk moving: the
 * reading is skipped. A sustained change becomes plausible as time passes, so a real step in level
 * is taken up after a few minutes rather than ignored for ever.
 */
const COLLECTION_MAX_RATE_LITRES_PER_MIN = 4_000;
/**
 * A fall that has not gone on for this long is over: a partial dip (milk drawn for calves, a
 * split pickup) is dropped, so the next collection's start is the reading before *its* fall. Long
 * enough for a driver's pause mid-pickup; a fall that resumes after an outage gap continues.
 */
const COLLECTION_STALL_MINUTES = 30;

/** A fall in volume that may turn out to be a collection. */
interface CollectionFall {
  /** The last reading before the fall began: the collection's start if it turns out to be one. */
  readonly start: ActivityPoint;
  /** The lowest volume since. */
  readonly low: number;
  /** When the volume last fell by more than noise. */
  readonly fellAt: string;
}

export interface CollectionState extends LatestSlice {
  /** The last reading with a volume that was not skipped: falls and rises are measured from it. */
  readonly ref: ActivityPoint | null;
  readonly fall: CollectionFall | null;
}

export const initialCollectionState = (): CollectionState => ({ last: null, ref: null, fall: null });

interface Limits {
  readonly noise: number;
  readonly empty: number;
  readonly minFall: number;
}
const limitsFor = (vat: Pick<VatConfig, 'vat_size'>): Limits => ({
  noise: Math.max(COLLECTION_NOISE_MIN_LITRES, COLLECTION_NOISE_FRACTION * vat.vat_size),
  empty: COLLECTION_EMPTY_FRACTION * vat.vat_size,
  minFall: COLLECTION_MIN_FALL_FRACTION * vat.vat_size,
});

const implausible = (ref: ActivityPoint & { milk_volume: number }, v: number, at: string, noise: number): boolean => {
  const change = Math.abs(v - ref.milk_volume);
  if (change <= noise) return false;
  const minutes = Math.max(1, msBetween(ref.published_at, at) / 60_000);
  return change / minutes > COLLECTION_MAX_RATE_LITRES_PER_MIN;
};

const withVolume = (p: ActivityPoint | null): (ActivityPoint & { milk_volume: number }) | null =>
  p !== null && p.milk_volume !== null ? (p as ActivityPoint & { milk_volume: number }) : null;

/**
 * Collection: the tanker empties the vat. A fall of more than noise starts a candidate, remembered
 * from the last reading before it; the candidate becomes a collection (opened) at the first
 * reading below COLLECTION_EMPTY_FRACTION of the vat size once at least COLLECTION_MIN_FALL_FRACTION
 * has gone, and closes at the first reading near empty that no longer falls. The candidate is
 * dropped if the volume rises again by more than noise (a dip, not a pickup), stops falling for
 * COLLECTION_STALL_MINUTES (a partial dip), or milking is going on (`milking`, the milking
 * detector's state after this reading). Readings without a volume are skipped, so an outage in the
 * middle of a pickup gives one collection across the gap, and a vat emptied while the device was
 * offline gives a collection from the last reading before the gap.
 */
export const stepCollection = (s: CollectionState, { reading: r, vat }: StepInput, milking: boolean): Step<CollectionState> => {
  const v = r.milk_volume;
  if (v === null) return unchanged(s);
  const { noise, empty, minFall } = limitsFor(vat);
  const point = pointOf(r);
  const ref = withVolume(s.ref);
  if (ref !== null && implausible(ref, v, r.published_at, noise)) return unchanged(s);
  const falling = ref !== null && v < ref.milk_volume - noise;

  if (isOpen(s.last)) {
    if (falling && !milking) return { state: { ...s, ref: point }, changed: [] };
    // A jump up (milk coming in, a glitch) ends it at the last near-empty reading instead.
    const closed: Activity = { ...s.last, end: v < empty ? point : (ref ?? point) };
    return { state: { last: closed, ref: point, fall: null }, changed: [closed] };
  }

  let fall = s.fall;
  if (milking || ref === null) fall = null;
  else if (fall === null) fall = falling ? { start: ref, low: v, fellAt: r.published_at } : null;
  else if (v > fall.low + noise) fall = null;
  else if (falling) fall = { start: fall.start, low: Math.min(fall.low, v), fellAt: r.published_at };
  else if (msBetween(fall.fellAt, r.published_at) > COLLECTION_STALL_MINUTES * 60_000) fall = null;
  else fall = { ...fall, low: Math.min(fall.low, v) };

  if (fall === null || v >= empty || (fall.start.milk_volume ?? 0) - v < minFall) {
    return { state: { last: s.last, ref: point, fall }, changed: [] };
  }
  // Emptied: the collection is known from here. Still falling: it ends when the fall stops.
  const activity: Activity = { kind: 'collection', start: fall.start, end: falling ? null : point };
  return { state: { last: activity, ref: point, fall: falling ? fall : null }, changed: [activity] };
};
