import { RAW_ARCHIVE_DAYS } from '../../shared/constants';
import type { Device, LastUpdated } from '../../shared/entities/device';
import { advance, hasPending, planBatch, replay, replayWindowStart, withReplayIntent, type IngestState, type Snapshot } from '../../shared/telemetry/ingest-core';
import { displayTemperature, displayVolume, type Reading } from '../../shared/telemetry/reading';
import { hourOf } from '../../shared/time/utc';
import type { Ports } from '../ports/action-ports';
import type { IngestRecord } from '../ports/farms';
import { makeLockedCommit, type Step } from '../lib/locked-commit';

/** A device as the ingest holds it: the device item with its ingest record (n readings seen, v the lock version). */
interface DeviceRecord {
  readonly device: Device;
  readonly ingest: IngestRecord | undefined;
  /** The live values this record's commit writes with it. */
  readonly live?: { readonly lastUpdated: LastUpdated; readonly seenAt: string };
}

/** The alert engine's step over a device's new in-order readings (oldest first), as one run. */
export type AlertHook = (ctx: { readonly device: Device; readonly readings: readonly Reading[] }) => Promise<void>;

/** The device's live values as the dashboard shows them (farmer §9 display rounding). */
const lastUpdatedOf = (r: Reading): LastUpdated => ({
  published_at: r.published_at,
  milk_level: r.milk_level,
  milk_volume: r.milk_volume === null ? null : displayVolume(r.milk_volume),
  temp1: r.temp1 === null ? null : displayTemperature(r.temp1),
  temp2: r.temp2 === null ? null : displayTemperature(r.temp2),
  temp5: r.temp5 === null ? null : displayTemperature(r.temp5),
  shaft_rpm: r.shaft_rpm,
  agitator_status: r.agitator_status,
  state_machine: r.state_machine,
});

/**
 * A warm container's copy of a device is trusted this long before the vat config (calibration)
 * is read again; the ingest state in it is safe to reuse anyway (every commit is conditional).
 */
const DEVICE_CACHE_MS = 60_000;

const stateOf = (r: DeviceRecord | undefined) => r?.ingest?.state as IngestState | undefined;
const versionOf = (r: DeviceRecord | undefined) => (r?.ingest ? (r.ingest.v ?? r.ingest.n) : -1);

/**
 * The ingest's devices under the shared commit shell: the record is the device item, the outbox
 * its ingest state's `pending` (activities, snapshots, compactions, stale partial buckets, and
 * the readings the alert engine has still to evaluate). Every write of the outbox carries the n
 * of the state that produced it and is conditional on not being older than what is stored.
 */
export const makeDeviceState = (deps: { farms: Ports['ingestRecords']; readings: Ports['readingsWrite']; now: () => Date; onReadings?: AlertHook }) => {
  const { farms, readings } = deps;
  /** The fresh readings of the batch a device is committing (after its cursor, through the newest): the alert outbox of that commit takes them from here instead of reading them back. */
  const inMemory = new Map<string, { after: string | null; through: string | null; readings: readonly Reading[] }>();

  const alertReadings = async (deviceId: string, after: string | null, through: string) => {
    const mem = inMemory.get(deviceId);
    if (mem && mem.after === after && mem.through === through) return mem.readings;
    const from = new Date(after === null ? Date.parse(through) - RAW_ARCHIVE_DAYS * 86_400_000 : Date.parse(after) + 1).toISOString();
    return readings.readPartitions(deviceId, from, through);
  };

  const shell = makeLockedCommit<DeviceRecord>({
    name: 'ingest',
    cacheMs: DEVICE_CACHE_MS,
    now: () => deps.now().getTime(),
    load: (id) => farms.getDeviceForIngest(id),
    commit: (id, next, previous) => farms.commitIngest(id, next.ingest as IngestRecord, previous?.ingest ? versionOf(previous) : undefined, next.live),
    version: versionOf,
    hasOutbox: (r) => {
      const s = stateOf(r);
      return s?.pending !== undefined && hasPending(s.pending);
    },
    flush: async (id, record) => {
      const pending = (stateOf(record) as IngestState).pending;
      const n = (record.ingest as IngestRecord).n;
      const { device } = record;
      await Promise.all([
        ...pending.snapshots.map((s) => readings.putSnapshot(id, s.hour, s.state, s.state.n)),
        ...pending.activities.map((a) => readings.putActivity({ ...a, device_id: id, farm_id: device.farm_id }, n)),
        ...pending.deletions.map((d) => readings.deleteActivity(id, d.kind, d.start, n)),
      ]);
      // Compaction reads the day's readings: after the rest, and one day at a time.
      for (const day of pending.compact) await readings.compactDay(id, day);
      // A late reading's day may have a partial bucket the range reads trust up to its end: drop it.
      for (const day of pending.stalePartials ?? []) await readings.dropPartial(id, day);
      // The alert engine is part of the committed step: a crash before it ran is caught up by the
      // next run on the device (its retry or its next batch); it skips readings it has seen.
      if (pending.alerts && deps.onReadings) await deps.onReadings({ device, readings: await alertReadings(id, pending.alerts.after, pending.alerts.through) });
    },
  });

  const commitOf = (current: DeviceRecord, state: IngestState, n: number, newest: Reading | undefined): Step<DeviceRecord, void> => {
    const live = newest && { lastUpdated: lastUpdatedOf(newest), seenAt: deps.now().toISOString() };
    const device = live ? { ...current.device, last_updated: live.lastUpdated, seen_at: live.seenAt } : current.device;
    return { kind: 'commit', record: { device, ingest: { n, v: versionOf(current) + 1, state }, ...(live ? { live } : {}) }, result: undefined };
  };

  /**
   * Before a batch writes readings older than the device's cursor: a replay intent committed
   * under the lock. Returns the readings that are late against the committed state.
   */
  const commitIntent = async (deviceId: string, candidates: readonly Reading[]): Promise<void> => {
    await shell.run(deviceId, (current) => {
      if (!current) throw new Error(`device ${deviceId} vanished during ingest`);
      const cursor = stateOf(current)?.cursor ?? null;
      const late = candidates.filter((r) => cursor !== null && r.published_at <= cursor).map((r) => r.published_at);
      if (late.length === 0) return { kind: 'none', result: undefined };
      const earliest = late.reduce((a, b) => (b < a ? b : a));
      const state = stateOf(current);
      if (state?.replay && state.replay.from <= earliest) return { kind: 'none', result: undefined };
      return { kind: 'commit', record: { device: current.device, ingest: { n: current.ingest?.n ?? 0, v: versionOf(current) + 1, state: withReplayIntent(state, earliest) } }, result: undefined };
    });
  };

  /**
   * A device's readings of one batch (stored now, or found stored already), one commit for all:
   * fresh ones step the detectors on; a late one of this batch, or a committed replay intent,
   * replays them from the snapshot before the earliest through the newest. `written`: the
   * instants this batch stored. Returns, per reading, whether it was fresh.
   */
  const commitBatch = async (deviceId: string, batch: readonly Reading[], written: ReadonlySet<string>): Promise<boolean[]> => {
    let fresh: ReadonlySet<string> = new Set();
    try {
      await shell.run(deviceId, async (current) => {
      if (!current) throw new Error(`device ${deviceId} vanished during ingest`);
      const vat = current.device;
      const state = stateOf(current);
      const cursor = state?.cursor ?? null;
      const lateNew = batch.filter((r) => cursor !== null && r.published_at <= cursor && written.has(r.published_at)).map((r) => r.published_at);
      const plan = planBatch(state, batch, lateNew);
      fresh = new Set(plan.fresh.map((r) => r.published_at));
      inMemory.set(deviceId, { after: cursor, through: plan.through, readings: plan.fresh });
      if (plan.replayFrom === undefined) {
        if (plan.fresh.length === 0) return { kind: 'none', result: undefined };
        const next = advance(state, current.ingest?.n ?? 0, plan.fresh, vat);
        return commitOf(current, next.state, next.n, plan.fresh.at(-1));
      }
      const snapshot = await readings.getSnapshotAtOrBefore(deviceId, plan.replayFrom);
      const fromHour = snapshot?.hour ?? hourOf(plan.replayFrom);
      const through = plan.through ?? plan.replayFrom;
      const [stream, existing] = await Promise.all([readings.readPartitions(deviceId, fromHour, through), readings.listActivities(deviceId, replayWindowStart(snapshot as { hour: string; state: Snapshot } | undefined, plan.replayFrom), '9999')]);
      const next = replay({ state, vat, snapshot: snapshot?.state as Snapshot | undefined, replayFrom: plan.replayFrom, stream, existing });
      return commitOf(current, next.state, next.n, plan.fresh.at(-1));
    });
    } finally {
      inMemory.delete(deviceId);
    }
    return batch.map((r) => fresh.has(r.published_at));
  };

  return { peek: async (id: string) => (await shell.peek(id)).record, commitIntent, commitBatch };
};
