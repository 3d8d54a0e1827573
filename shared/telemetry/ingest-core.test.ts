import { describe, expect, it } from 'vitest';
import { hourOf } from '../time/utc';
import { activityId, type Activity } from './activities';
import { detectAll, initialDetectorState } from './detect';
import { advance, closedDays, hasPending, initialSnapshot, NO_PENDING, planBatch, replay, replayWindowStart, snapshotBlock, SNAPSHOT_HOURS, stepThrough, withReplayIntent, type IngestState, type Snapshot } from './ingest-core';
import type { Reading } from './reading';
import { at, trace, TRACE_VAT } from './testing/trace';

const VAT = { ...TRACE_VAT, _id: 'dev-1' };

/**
 * The ingest's storage in memory, applied the way lambdas/ingest/device-state.ts applies an
 * outbox: readings by instant, snapshots by hour (the one that has seen more readings wins),
 * activities by id (n-guarded), deletions.
 */
const memoryStore = () => {
  const readings = new Map<string, Reading>();
  const snapshots = new Map<string, Snapshot>();
  const activities = new Map<string, { a: Activity; n: number }>();
  let state: IngestState | undefined;
  let n = 0;
  const apply = (next: { state: IngestState; n: number }) => {
    state = next.state;
    n = next.n;
    for (const s of next.state.pending.snapshots) if ((snapshots.get(s.hour)?.n ?? -1) <= s.state.n) snapshots.set(s.hour, s.state);
    for (const a of next.state.pending.activities) {
      const id = activityId(VAT._id, a);
      if ((activities.get(id)?.n ?? -1) <= next.n) activities.set(id, { a, n: next.n });
    }
    for (const d of next.state.pending.deletions) activities.delete(`${VAT._id}~${d.kind}~${d.start}`);
  };
  /** One batch: what the shell does around the pure core. */
  const ingest = (batch: readonly Reading[]) => {
    const newOnes = batch.filter((r) => !readings.has(r.published_at));
    const lateNew = newOnes.filter((r) => state?.cursor != null && r.published_at <= state.cursor).map((r) => r.published_at);
    for (const r of newOnes) readings.set(r.published_at, r);
    const plan = planBatch(state, batch, lateNew);
    if (plan.replayFrom === undefined) {
      if (plan.fresh.length > 0) apply(advance(state, n, plan.fresh, VAT));
      return;
    }
    const hours = [...snapshots.keys()].filter((h) => h <= hourOf(plan.replayFrom as string)).sort();
    const hour = hours.at(-1);
    const fromHour = hour ?? hourOf(plan.replayFrom);
    const through = plan.through as string;
    const stream = [...readings.values()].filter((r) => r.published_at >= fromHour && r.published_at <= through).sort((a, b) => (a.published_at < b.published_at ? -1 : 1));
    const from = replayWindowStart(hour ? { hour, state: snapshots.get(hour) as Snapshot } : undefined, plan.replayFrom);
    const existing = [...activities.values()].map((x) => x.a).filter((a) => a.start.published_at >= from);
    apply(replay({ state, vat: VAT, snapshot: hour ? snapshots.get(hour) : undefined, replayFrom: plan.replayFrom, stream, existing }));
  };
  const view = () => ({
    n,
    cursor: state?.cursor,
    detector: state?.detector,
    activities: [...activities.values()].map((x) => x.a).sort((a, b) => activityId('', a).localeCompare(activityId('', b))),
  });
  return { ingest, view, get state() {
    return state;
  } };
};

/** Whether readings[i] is the first of its block of SNAPSHOT_HOURS (worked out here apart from snapshotBlock). */
const startsBlock = (readings: readonly Reading[], i: number) => {
  const blockOf = (iso: string) => `${iso.slice(0, 11)}${Math.floor(Number(iso.slice(11, 13)) / SNAPSHOT_HOURS)}`;
  return i === 0 || blockOf((readings[i] as Reading).published_at) !== blockOf((readings[i - 1] as Reading).published_at);
};

const busy = trace({ outages: [[600, 640]], batteryOff: [[700, 730]], agitatorStops: [[1_100, 1_125]] });

describe('ingest core', () => {
  it('stepping in batches ends where the detectors end over the whole trace', () => {
    const store = memoryStore();
    for (let i = 0; i < busy.length; i += 97) store.ingest(busy.slice(i, i + 97));
    const whole = detectAll(initialDetectorState(), busy, VAT);
    expect(store.view().n).toBe(busy.length);
    expect(store.view().detector).toEqual(whole.state);
    const closed = new Map(whole.changed.map((a) => [activityId(VAT._id, a), a]));
    expect(store.view().activities).toEqual([...closed.values()].sort((a, b) => activityId('', a).localeCompare(activityId('', b))));
  });

  it(`keeps a replay snapshot at the first reading of each block of ${SNAPSHOT_HOURS} hours (UTC), the state before it, keyed by the block's first hour`, () => {
    const { snapshots } = stepThrough(initialSnapshot(), busy, VAT);
    const firsts = busy.filter((_, i) => startsBlock(busy, i));
    expect(firsts.length).toBeGreaterThan(2);
    expect(snapshots.map((s) => s.hour)).toEqual(firsts.map((r) => snapshotBlock(r.published_at)));
    expect(snapshots.every((s) => Number(s.hour.slice(11, 13)) % SNAPSHOT_HOURS === 0)).toBe(true);
    for (const [j, s] of snapshots.entries()) expect(s.state.n).toBe(busy.indexOf(firsts[j] as Reading));
  });

  it('late readings replay to the state of in-order delivery, activities that did not come back deleted', () => {
    const inOrder = memoryStore();
    for (let i = 0; i < busy.length; i += 60) inOrder.ingest(busy.slice(i, i + 60));
    // Out of order: the 610-639 gap first looks like an outage (it is in the clean trace too);
    // hold back 200-260 (the wash) and 400-450 (the end of the milking), deliver them at the end.
    const held = (r: Reading) => (r.published_at >= at(200) && r.published_at < at(260)) || (r.published_at >= at(400) && r.published_at < at(450));
    const shuffled = memoryStore();
    const first = busy.filter((r) => !held(r));
    for (let i = 0; i < first.length; i += 60) shuffled.ingest(first.slice(i, i + 60));
    expect(shuffled.view().activities).not.toEqual(inOrder.view().activities);
    shuffled.ingest(busy.filter(held).reverse());
    expect(shuffled.view()).toEqual(inOrder.view());
  });

  it('late readings at the start of a block, then another late one later in it, still end in the in-order state', () => {
    // The block's first 90 minutes come late, so the block's first stepped reading is in a later
    // hour; their replay and a later one in the block must agree on the block's snapshot (it was
    // keyed by that first reading's hour, so the later replay started from the stale one).
    const start = busy.findIndex((_, i) => i > 0 && startsBlock(busy, i));
    const heldFirst = new Set(busy.slice(start, start + 90));
    const heldLater = busy[start + 150] as Reading;
    const inOrder = memoryStore();
    for (let i = 0; i < busy.length; i += 60) inOrder.ingest(busy.slice(i, i + 60));
    const late = memoryStore();
    const first = busy.filter((r) => !heldFirst.has(r) && r !== heldLater);
    for (let i = 0; i < first.length; i += 60) late.ingest(first.slice(i, i + 60));
    late.ingest([...heldFirst]);
    late.ingest([heldLater]);
    expect(late.view()).toEqual(inOrder.view());
  });

  it('a replay keeps an activity that began at the snapshot\'s cursor and goes on unchanged through the window', () => {
    const plain = trace();
    const start = plain.findIndex((_, i) => i > 300 && startsBlock(plain, i));
    // The agitator stops at the block's last reading before and stays stopped to the end.
    const stopped = trace({ agitatorStops: [[start - 1, plain.length + 10]] }).slice(0, start + 120);
    const inOrder = memoryStore();
    inOrder.ingest(stopped);
    const late = memoryStore();
    const held = stopped[start + 60] as Reading;
    late.ingest(stopped.filter((r) => r !== held));
    late.ingest([held]);
    expect(late.view().activities.filter((a) => a.kind === 'agitator_stop').map((a) => a.start.published_at)).toContain(at(start - 1));
    expect(late.view()).toEqual(inOrder.view());
  });

  it('a replay intent makes the next batch replay even when its readings are all stored already (the retry after a crash)', () => {
    const store = memoryStore();
    store.ingest(busy.slice(0, 300));
    const late = busy.slice(100, 101);
    // A batch committed the intent, stored the late reading, and died before its replay commit:
    // the redelivery finds the reading stored (a duplicate) and no late reading of its own.
    const intent = withReplayIntent(store.state, late[0]!.published_at);
    expect(planBatch(intent, late, []).replayFrom).toBe(late[0]!.published_at);
    expect(planBatch(store.state, late, []).replayFrom).toBeUndefined();
    // The intent keeps its earliest instant; the replay's state has none.
    expect(withReplayIntent(intent, at(200)).replay).toEqual({ from: late[0]!.published_at });
    const next = replay({ state: intent, vat: VAT, snapshot: undefined, replayFrom: at(100), stream: busy.slice(0, 300), existing: [] });
    expect(next.state.replay).toBeUndefined();
    expect(next.n).toBe(300);
    expect(next.state.cursor).toBe(busy[299]!.published_at);
  });

  it('hands the alert engine the in-order readings only: (cursor, newest] of the step', () => {
    const first = advance(undefined, 0, busy.slice(0, 10), VAT);
    expect(first.state.pending.alerts).toEqual({ after: null, through: busy[9]!.published_at });
    const second = advance(first.state, first.n, busy.slice(10, 12), VAT);
    expect(second.state.pending.alerts).toEqual({ after: busy[9]!.published_at, through: busy[11]!.published_at });
    // A replay of late readings alone (nothing newer than the cursor) is no news to the engine.
    const lateOnly = replay({ state: second.state, vat: VAT, snapshot: undefined, replayFrom: busy[3]!.published_at, stream: busy.slice(0, 12), existing: [] });
    expect(lateOnly.state.pending.alerts).toBeUndefined();
    expect(lateOnly.state.pending.stalePartials).toEqual(['2025-03-10']);
    expect(hasPending(NO_PENDING)).toBe(false);
    expect(hasPending({ ...NO_PENDING, alerts: { after: null, through: at(1) } })).toBe(true);
  });

  it('compacts the days a step closes', () => {
    expect(closedDays([at(10), at(1_500), at(3_000)], at(3_000))).toEqual(['2025-03-10', '2025-03-11']);
    const twoDays = trace({ days: 2 });
    const s = advance(undefined, 0, twoDays.slice(1_400, 1_500), VAT);
    expect(s.state.pending.compact).toEqual(['2025-03-10']);
  });
});
