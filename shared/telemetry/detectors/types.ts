import type { Activity, ActivityPoint } from '../activities';
import type { Reading, VatConfig } from '../reading';

/** What every detector sees for one reading. */
export interface StepInput {
  readonly reading: Reading;
  /** The reading stepped just before this one, as a point; null for the first reading of a stream. */
  readonly previous: ActivityPoint | null;
  readonly vat: VatConfig;
}

/** A detector's answer to one reading: its next state slice and the activities the reading opened or closed. */
export interface Step<S> {
  readonly state: S;
  readonly changed: readonly Activity[];
}

/**
 * Every detector remembers its latest activity, open (end null) or closed. That one field is both
 * "is an activity going on" and the dashboard's "last milking / collection / CIP / storage", so the
 * state never holds the same activity twice.
 */
export interface LatestSlice {
  readonly last: Activity | null;
}

type OpenActivity = Activity & { readonly end: null };

export const isOpen = (a: Activity | null): a is OpenActivity => a !== null && a.end === null;

/** Milliseconds from one ISO instant to another (no clock: both come from readings). */
export const msBetween = (from: string, to: string): number => Date.parse(to) - Date.parse(from);

export const unchanged = <S>(state: S): Step<S> => ({ state, changed: [] });
