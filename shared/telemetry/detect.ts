import * as z from 'zod';
import { ACTIVITY_KINDS, pointOf, type Activity, type ActivityKind, type ActivityPoint } from './activities';
import type { Reading, VatConfig } from './reading';
import { stepAgitatorStop, type AgitatorStopState } from './detectors/agitator-stop';
import { stepBatteryOff, type BatteryOffState } from './detectors/battery-off';
import { stepCip, type CipState } from './detectors/cip';
import { initialCollectionState, stepCollection, type CollectionState } from './detectors/collection';
import { initialLatest } from './detectors/interval';
import { stepMilking, type MilkingState } from './detectors/milking';
import { stepOutage, type OutageState } from './detectors/outage';
import { initialStorageState, stepStorage, type StorageState } from './detectors/storage';
import { isOpen, type StepInput } from './detectors/types';

/**
 * Every detector's state for one device, stored by the ingest between messages. Plain JSON (no
 * Dates, no Maps, no undefined), about 2 KB at most: each slice keeps its latest activity and the
 * collection detector a reference reading and a candidate fall. `v` versions the shape: a stored
 * state of another version does not parse (parseDetectorState), and the ingest rebuilds it by
 * replaying readings from initialDetectorState().
 */
export interface DetectorState {
  readonly v: 1;
  /** The last reading stepped: the outage detector's "previous" and the order check. */
  readonly previous: ActivityPoint | null;
  readonly milking: MilkingState;
  readonly collection: CollectionState;
  readonly cip: CipState;
  readonly agitator_stop: AgitatorStopState;
  readonly outage: OutageState;
  readonly battery_off: BatteryOffState;
  readonly storage: StorageState;
}

export const initialDetectorState = (): DetectorState => ({
  v: 1,
  previous: null,
  milking: initialLatest(),
  collection: initialCollectionState(),
  cip: initialLatest(),
  agitator_stop: initialLatest(),
  outage: initialLatest(),
  battery_off: initialLatest(),
  storage: initialStorageState(),
});

interface DetectResult {
  readonly state: DetectorState;
  /**
   * Every activity this reading opened or closed, in the order of ACTIVITY_KINDS (an open one with
   * end null; when it closes it comes again with its end). Kind and start never change, so
   * activityId(deviceId, a) keys the same activity on both writes.
   */
  readonly changed: readonly Activity[];
}

/** Thrown for a reading older than one already stepped: the ingest must replay from a state before it. */
export class OutOfOrderReadingError extends Error {
  override readonly name = 'OutOfOrderReadingError';
  constructor(
    readonly publishedAt: string,
    readonly lastPublishedAt: string,
  ) {
    super(`Reading ${publishedAt} is older than the last reading stepped (${lastPublishedAt}); replay from an earlier state`);
  }
}

/**
 * Steps every detector with one reading, which must be newer than every reading already stepped.
 * Pure and deterministic: the result depends only on (state, reading, vat), so replaying a window
 * of readings from a saved state gives exactly what processing them in order gave. A reading at the
 * same instant as the last one stepped (a redelivered message) changes nothing; an older one throws
 * OutOfOrderReadingError.
 */
export const detect = (state: DetectorState, reading: Reading, vat: VatConfig): DetectResult => {
  if (state.previous !== null) {
    const age = Date.parse(reading.published_at) - Date.parse(state.previous.published_at);
    if (age === 0) return { state, changed: [] };
    if (age < 0 || Number.isNaN(age)) throw new OutOfOrderReadingError(reading.published_at, state.previous.published_at);
  }
  const input: StepInput = { reading, previous: state.previous, vat };
  const milking = stepMilking(state.milking, input);
  const collection = stepCollection(state.collection, input, isOpen(milking.state.last));
  const cip = stepCip(state.cip, input);
  const agitator = stepAgitatorStop(state.agitator_stop, input);
  const outage = stepOutage(state.outage, input);
  const battery = stepBatteryOff(state.battery_off, input);
  const storage = stepStorage(state.storage, input, {
    milkingStarted: milking.changed.find((a) => a.end === null) ?? null,
    collectionEnded: collection.changed.find((a) => a.end !== null) ?? null,
  });
  return {
    state: {
      v: 1,
      previous: pointOf(reading),
      milking: milking.state,
      collection: collection.state,
      cip: cip.state,
      agitator_stop: agitator.state,
      outage: outage.state,
      battery_off: battery.state,
      storage: storage.state,
    },
    changed: [
      ...milking.changed,
      ...collection.changed,
      ...cip.changed,
      ...agitator.changed,
      ...outage.changed,
      ...battery.changed,
      ...storage.changed,
    ],
  };
};

/** Latest activity of each kind (open or closed) for the dashboard's lastMilking, lastCollection, lastCIP, lastStorage. */
export const latestActivities = (state: DetectorState): Partial<Record<ActivityKind, Activity>> => {
  const latest: Partial<Record<ActivityKind, Activity>> = {};
  for (const kind of ACTIVITY_KINDS) {
    const last = state[kind].last;
    if (last !== null) latest[kind] = last;
  }
  return latest;
};

/** Steps a run of readings (oldest first); the changes are concatenated in order. */
export const detectAll = (state: DetectorState, readings: readonly Reading[], vat: VatConfig): DetectResult => {
  let s = state;
  const changed: Activity[] = [];
  for (const r of readings) {
    const step = detect(s, r, vat);
    s = step.state;
    changed.push(...step.changed);
  }
  return { state: s, changed };
};

const n = z.number().nullable();
const pointSchema = z.object({ published_at: z.string(), milk_volume: n, temp1: n, temp2: n, temp3: n }).strict();
const activitySchema = z.object({ kind: z.enum(ACTIVITY_KINDS), start: pointSchema, end: pointSchema.nullable() }).strict();
const latestSchema = z.object({ last: activitySchema.nullable() }).strict();

/** The stored state's shape, checked when the ingest reads it back (parse before you act). */
export const detectorStateSchema = z
  .object({
    v: z.literal(1),
    previous: pointSchema.nullable(),
    milking: latestSchema,
    collection: z
      .object({
        last: activitySchema.nullable(),
        ref: pointSchema.nullable(),
        fall: z.object({ start: pointSchema, low: z.number(), fellAt: z.string() }).strict().nullable(),
      })
      .strict(),
    cip: latestSchema,
    agitator_stop: latestSchema,
    outage: latestSchema,
    battery_off: latestSchema,
    storage: z.object({ last: activitySchema.nullable(), seen: z.boolean() }).strict(),
  })
  .strict();

/**
 * A stored state as a DetectorState, or undefined when it is not one of this version (an older
 * shape after a deploy): the caller then replays from initialDetectorState().
 */
export const parseDetectorState = (stored: unknown): DetectorState | undefined => {
  const parsed = detectorStateSchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
};
