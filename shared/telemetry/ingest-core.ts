import { dayOf, hourOf } from '../time/utc';
import { activityId, type Activity, type ActivityKind } from './activities';
import { detect, initialDetectorState, latestActivities, type DetectorState } from './detect';
import type { Reading, VatConfig } from './reading';

/**
 * The ingest's pure core: how a device's detector state moves with its readings, what side
 * effects (the outbox) a step implies, and the replay that makes late readings count. No I/O:
 * lambdas/ingest/ingest.ts loads what a step needs, and lambdas/lib/locked-commit.ts commits it.
 */

/** The detector state after `n` readings, the newest of them at `cursor` (a replay snapshot keeps one). */
export interface Snapshot {
  readonly cursor: string | null;
  readonly n: number;
  readonly detector: DetectorState;
}

/** Side effects of a committed state, applied after the commit (the outbox on the device item). */
interface Pending {
  readonly activities: readonly Activity[];
  readonly deletions: readonly { readonly kind: ActivityKind; readonly start: string }[];
  readonly snapshots: readonly { readonly hour: string; readonly state: Snapshot }[];
  /** Closed UTC days to compact into their buckets. */
  readonly compact: readonly string[];
  /** Days whose read-path partial bucket a late reading made stale. */
  readonly stalePartials?: readonly string[];
  /** The in-order readings (after, through] the alert engine still has to evaluate. */
  readonly alerts?: { readonly after: string | null; readonly through: string };
}

/** What the device item keeps for the ingest (with n, the readings seen, and v, the lock version). */
export interface IngestState {
  readonly cursor: string | null;
  readonly detector: DetectorState;
  readonly pending: Pending;
  /**
   * A replay intent: committed under the lock before late readings are written, cleared by the
   * commit of the replay. Whoever steps the device next (the retry of a failed batch, or any later
   * batch) replays from here first, so a late reading written before a crash is never skipped.
   */
  readonly replay?: { readonly from: string };
}

export const NO_PENDING: Pending = { activities: [], deletions: [], snapshots: [], compact: [] };

export const hasPending = (p: Pending): boolean =>
  p.activities.length + p.deletions.length + p.snapshots.length + p.compact.length + (p.stalePartials?.length ?? 0) > 0 || p.alerts !== undefined;

export const initialSnapshot = (): Snapshot => ({ cursor: null, n: 0, detector: initialDetectorState() });

/**
 * Replay snapshots are kept every this many hours of data time (at UTC hours 0, 4, 8, …): a replay
 * steps through at most that much more, and a device writes one snapshot a block instead of one an
 * hour (a quarter of the ingest's snapshot writes).
 */
export const SNAPSHOT_HOURS = 4;
/**
 * The hour (`YYYY-MM-DDTHH`, UTC) a block of SNAPSHOT_HOURS begins at: a block's snapshot is keyed
 * by it, whichever of the block's readings was stepped first. It was keyed by the hour of that
 * first reading, which differs with the delivery order (the block's first hours late): a replay
 * through the block then wrote its snapshot under another key, the stale one (short of the late
 * readings) stayed, and a later replay in the block started from it and lost them. Under one key
 * the snapshot that has seen the most readings wins (the write's n guard). Hourly snapshots stored
 * before SNAPSHOT_HOURS are still found at or before an instant and are as good as they were.
 */
export const snapshotBlock = (iso: string): string => `${iso.slice(0, 11)}${String(Math.floor(Number(iso.slice(11, 13)) / SNAPSHOT_HOURS) * SNAPSHOT_HOURS).padStart(2, '0')}`;

/** Steps the detectors through readings in time order from `start`: the end state, the activities changed, a snapshot at each new block of SNAPSHOT_HOURS. */
export const stepThrough = (start: Snapshot, readings: readonly Reading[], vat: VatConfig & { readonly _id: string }) => {
  let state = start;
  const changed = new Map<string, Activity>();
  const snapshots: { hour: string; state: Snapshot }[] = [];
  for (const r of readings) {
    if (state.cursor === null || snapshotBlock(r.published_at) !== snapshotBlock(state.cursor)) snapshots.push({ hour: snapshotBlock(r.published_at), state });
    const step = detect(state.detector, r, vat);
    for (const a of step.changed) changed.set(activityId(vat._id, a), a);
    state = { cursor: r.published_at, n: state.n + 1, detector: step.state };
  }
  return { state, changed, snapshots };
};

/** The UTC days of these instants that are closed once the state reaches `through` (to compact). */
export const closedDays = (times: readonly string[], through: string): string[] => [...new Set(times.map(dayOf))].filter((d) => d < dayOf(through)).sort();

/** A batch's readings for one device, split against the committed cursor. */
interface BatchPlan {
  /** Newer than the cursor, in time order: they step the detectors. */
  readonly fresh: readonly Reading[];
  /** The earliest instant to replay from (a late reading of this batch, or a committed intent), if any. */
  readonly replayFrom: string | undefined;
  /** The newest instant the state reaches. */
  readonly through: string | null;
}

/**
 * Splits a batch against the state: readings newer than the cursor are fresh; `lateNew` (the
 * readings this batch stores that are not newer than the cursor) and a committed intent ask for a
 * replay. Already-stored readings at or before the cursor change nothing.
 */
export const planBatch = (state: IngestState | undefined, readings: readonly Reading[], lateNew: readonly string[]): BatchPlan => {
  const cursor = state?.cursor ?? null;
  const fresh = readings.filter((r) => cursor === null || r.published_at > cursor).sort((a, b) => (a.published_at < b.published_at ? -1 : 1));
  const starts = [...lateNew, ...(state?.replay ? [state.replay.from] : [])];
  const replayFrom = starts.length > 0 ? starts.reduce((a, b) => (b < a ? b : a)) : undefined;
  return { fresh, replayFrom, through: fresh.at(-1)?.published_at ?? cursor };
};

/**
 * The state with a replay intent from `from` (or from an earlier one already committed). Its
 * outbox is empty: the commit shell applies a committed outbox before every step, so the one of
 * `state` is done, and applying it again with the intent's commit would only repeat its writes.
 */
export const withReplayIntent = (state: IngestState | undefined, from: string): IngestState => {
  const base = state ?? { cursor: null, detector: initialDetectorState(), pending: NO_PENDING };
  return { ...base, pending: NO_PENDING, replay: { from: base.replay && base.replay.from < from ? base.replay.from : from } };
};

/** The state a step ends in, with its outbox: the activities it changed and the snapshots it passed, plus `more`. */
const endState = (step: ReturnType<typeof stepThrough>, through: string | null, more: Omit<Pending, 'activities' | 'snapshots'>): { state: IngestState; n: number } => ({
  n: step.state.n,
  state: { cursor: through, detector: step.state.detector, pending: { activities: [...step.changed.values()], snapshots: step.snapshots, ...more } },
});

/** In-order readings only: the detectors step on from the committed state. */
export const advance = (state: IngestState | undefined, n: number, fresh: readonly Reading[], vat: VatConfig & { readonly _id: string }): { state: IngestState; n: number } => {
  const cursor = state?.cursor ?? null;
  const step = stepThrough({ cursor, n, detector: state?.detector ?? initialDetectorState() }, fresh, vat);
  const through = step.state.cursor as string;
  return endState(step, through, {
    deletions: [],
    compact: closedDays([...(cursor ? [cursor] : []), ...fresh.map((r) => r.published_at)], through),
    alerts: { after: cursor, through },
  });
};

/**
 * Where a replay from `snapshot` (keyed `hour`) looks for the activities it may delete: from the
 * snapshot's cursor, the last reading before its block, since an outage or a battery-off found
 * later starts at the reading before the gap (a block's first hours late: the outage from the
 * reading before the block, which the late readings fill). Without a cursor, from the replay's hour.
 */
export const replayWindowStart = (snapshot: { readonly hour: string; readonly state: Snapshot } | undefined, replayFrom: string): string =>
  snapshot?.state.cursor ?? snapshot?.hour ?? hourOf(replayFrom);

/**
 * A replay: the detectors again from the snapshot at or before the earliest late reading, over
 * every stored reading from its hour through the newest. Activities that began in the window and
 * did not come back are deleted (an outage a late reading filled, say). The fresh readings among
 * the stream still go to the alert engine; late ones are old news to it.
 */
export const replay = (input: {
  readonly state: IngestState | undefined;
  readonly vat: VatConfig & { readonly _id: string };
  /** The snapshot found at or before replayFrom (undefined: from the device's first reading). */
  readonly snapshot: Snapshot | undefined;
  readonly replayFrom: string;
  /** Stored readings from the snapshot's hour (or replayFrom's) through the newest, in time order. */
  readonly stream: readonly Reading[];
  /** Stored activities whose start lies in the window: at or after the snapshot's cursor (`replayWindowStart`). */
  readonly existing: readonly Pick<Activity, 'kind' | 'start'>[];
}): { state: IngestState; n: number } => {
  const { vat, stream } = input;
  const cursor = input.state?.cursor ?? null;
  const step = stepThrough(input.snapshot ?? initialSnapshot(), stream, vat);
  const through = step.state.cursor ?? cursor;
  // An activity the snapshot's detectors already hold (one open at its cursor, say) goes on
  // whether or not the window changes it; any other the window does not give again is gone.
  const known = new Set(Object.values(latestActivities(input.snapshot?.detector ?? initialDetectorState())).map((a) => activityId(vat._id, a)));
  const deletions = input.existing
    .filter((a) => {
      const id = activityId(vat._id, a);
      return !step.changed.has(id) && !known.has(id);
    })
    .map((a) => ({ kind: a.kind, start: a.start.published_at }));
  const fresh = stream.filter((r) => cursor === null || r.published_at > cursor);
  const late = stream.filter((r) => r.published_at >= input.replayFrom && (cursor === null || r.published_at <= cursor));
  const touched = [...(cursor ? [cursor] : []), input.replayFrom, ...late.map((r) => r.published_at), ...fresh.map((r) => r.published_at)];
  return endState(step, through, {
    deletions,
    compact: through ? closedDays(touched, through) : [],
    stalePartials: [...new Set([input.replayFrom, ...late.map((r) => r.published_at)].map(dayOf))].sort(),
    ...(fresh.length > 0 && through ? { alerts: { after: cursor, through } } : {}),
  });
};
