import { sameReading, readingKey, implausibleForVat, toReading, type Reading } from '../../shared/telemetry/reading';
import type { Ports } from '../ports/action-ports';
import type { Logger } from '../lib/logger';
import { makeDeviceState, type AlertHook } from './device-state';
import { makeMessageChecks, type Candidate, type IngestOutcome, type RejectEvent } from './message-checks';

export { iotRuleEventSchema, type IngestOutcome, type IotRuleEvent } from './message-checks';
export { lastUpdatedOf } from './device-state';

/** A message's result in a batch: its outcome, or the error that failed it (to be retried). */
export type BatchResult = { readonly ok: true; readonly outcome: IngestOutcome } | { readonly ok: false; readonly error: Error };

export interface IngestDeps {
  readonly farms: Ports['ingestRecords'];
  readonly readings: Ports['readingsWrite'];
  readonly now: () => Date;
  readonly log: Logger;
  /**
   * The alert engine (issue 6), with a device's in-order readings of a batch in one step: part of
   * the device's committed step (its outbox), so a crash before it ran is caught up by the next
   * run on the device. Late readings are old news to it.
   */
  readonly onReadings?: AlertHook;
  /**
   * After a batch's device commits, each farm's devices with their new in-order readings (issue
   * 26: the live-updates push to the farm's WebSocket connections; one call per farm and batch).
   * Best effort: it must not throw, and never fails the batch.
   */
  readonly onStored?: (farm: string, devices: readonly { readonly device: string; readonly readings: readonly Reading[] }[]) => Promise<void>;
}

/** A reading of a batch for its device, with where it came from. */
interface Item {
  readonly index: number;
  readonly reading: Reading;
  readonly raw: string;
  readonly ev: RejectEvent;
}
/** Filled in by a later step of the batch. */
const PLACEHOLDER: IngestOutcome = { status: 'duplicate' };
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/** A per-key queue: one device's messages are processed one at a time within this process. */
const keyedQueue = () => {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
};

/**
 * The ingest: validates device messages, stores them (reading + raw archive), keeps each device's
 * live values and steps its activity detectors and alert engine. Idempotent and order-independent:
 * a message delivered twice changes nothing the second time, and a late message replays the
 * detectors (shared/telemetry/ingest-core.ts), so any delivery order ends in the state of
 * in-order delivery. A batch costs one BatchGetItem per 100 readings or one Query per device and day
 * for a device's many close ones (the duplicate check), one
 * BatchWriteItem per 25 new ones and one conditional commit per device (two with late readings:
 * the replay intent first), where one message at a time costs two requests or more.
 */
export const makeIngest = (deps: IngestDeps) => {
  const { readings } = deps;
  const queue = keyedQueue();
  const checks = makeMessageChecks(deps);
  const devices = makeDeviceState(deps);

  const ingestBatch = async (inputs: readonly unknown[]): Promise<BatchResult[]> => {
    const results: BatchResult[] = new Array<BatchResult>(inputs.length);
    const settle = async (indexes: readonly number[], work: () => Promise<readonly IngestOutcome[] | IngestOutcome>) => {
      try {
        const out = await work();
        indexes.forEach((i, j) => (results[i] = { ok: true, outcome: Array.isArray(out) ? (out[j] as IngestOutcome) : (out as IngestOutcome) }));
      } catch (err) {
        for (const i of indexes) results[i] = { ok: false, error: asError(err) };
      }
    };

    // 1. Each message checked on its own; the readings grouped by device, in batch order.
    const groups = new Map<string, { thing: string; candidates: { index: number; candidate: Candidate }[] }>();
    await Promise.all(
      inputs.map((input, index) =>
        settle([index], async () => {
          const prepared = await checks.prepare(input);
          if (!('message' in prepared)) return prepared;
          const group = groups.get(prepared.deviceId) ?? { thing: prepared.thing, candidates: [] };
          group.candidates.push({ index, candidate: prepared });
          groups.set(prepared.deviceId, group);
          return PLACEHOLDER;
        }),
      ),
    );

    // 2. Per device: the device, its checks, and one reading per instant.
    const accepted: { deviceId: string; name: string; farm: string; items: Item[]; written: Set<string> }[] = [];
    await Promise.all(
      [...groups].map(([deviceId, { thing, candidates }]) =>
        settle(
          candidates.map((c) => c.index),
          async () => {
            const found = (await devices.peek(deviceId))?.device;
            const items: Item[] = [];
            const byInstant = new Map<string, Reading>();
            const outcomes = await Promise.all(
              candidates.map(async ({ index, candidate: { ev, message } }): Promise<IngestOutcome> => {
                if (!found) return checks.reject(ev, `unknown device ${thing}`);
                if (found.status !== 1) return checks.reject(ev, `device ${thing} is retired`);
                const absurd = implausibleForVat(message, found);
                if (absurd) return checks.reject(ev, absurd);
                const reading = toReading(message, found);
                const twin = byInstant.get(reading.published_at);
                if (twin && sameReading(twin, reading)) return { status: 'duplicate' };
                if (twin) return checks.reject(ev, `another message of ${thing} has published_at ${reading.published_at}`);
                byInstant.set(reading.published_at, reading);
                items.push({ index, reading, raw: ev.payloadText, ev });
                return PLACEHOLDER;
              }),
            );
            if (found && items.length > 0) accepted.push({ deviceId, name: found.name, farm: found.farm_id, items, written: new Set() });
            return outcomes;
          },
        ),
      ),
    );

    // 3. Duplicates and conflicts against what is stored.
    const failDevice = (entry: (typeof accepted)[number], error: unknown) => {
      for (const item of entry.items) results[item.index] = { ok: false, error: asError(error) };
      entry.items = [];
    };
    let stored: Map<string, Reading>;
    try {
      stored = await readings.getReadings(accepted.flatMap((a) => a.items.map((i) => ({ deviceId: a.deviceId, publishedAt: i.reading.published_at }))));
    } catch (err) {
      for (const entry of accepted) failDevice(entry, err);
      return results;
    }
    for (const entry of accepted) {
      const kept: Item[] = [];
      for (const item of entry.items) {
        const existing = stored.get(readingKey(entry.deviceId, item.reading.published_at));
        if (!existing) entry.written.add(item.reading.published_at);
        if (!existing || sameReading(existing, item.reading)) kept.push(item);
        else results[item.index] = { ok: true, outcome: await checks.reject(item.ev, `another message of ${entry.name} has published_at ${item.reading.published_at}`) };
      }
      entry.items = kept;
    }

    // 4. A replay intent under the lock for each device with new readings older than its cursor,
    //    then the new readings (BatchWriteItem, 25 a request, every device at once).
    const live = accepted.filter((e) => e.items.length > 0);
    await Promise.all(
      live.map((entry) =>
        queue(entry.deviceId, () => devices.commitIntent(entry.deviceId, entry.items.filter((i) => entry.written.has(i.reading.published_at)).map((i) => i.reading))).catch((err: unknown) =>
          failDevice(entry, err),
        ),
      ),
    );
    const writing = live.filter((e) => e.items.length > 0);
    try {
      await readings.writeReadings(writing.flatMap((e) => e.items.filter((i) => e.written.has(i.reading.published_at)).map((i) => ({ deviceId: e.deviceId, reading: i.reading, raw: i.raw }))));
    } catch (err) {
      for (const entry of writing) failDevice(entry, err);
      return results;
    }

    // 5. One commit per device, devices in parallel, each device's batches one at a time; then the
    //    new readings to the live push, one call per farm.
    const storedByFarm = new Map<string, { device: string; readings: Reading[] }[]>();
    await Promise.all(
      writing.map((entry) =>
        settle(
          entry.items.map((i) => i.index),
          async () => {
            const fresh = await queue(entry.deviceId, () => devices.commitBatch(entry.deviceId, entry.items.map((i) => i.reading), entry.written));
            const stored = entry.items.filter((_, j) => fresh[j]).map((i) => i.reading);
            if (stored.length > 0) storedByFarm.set(entry.farm, [...(storedByFarm.get(entry.farm) ?? []), { device: entry.deviceId, readings: stored }]);
            return entry.items.map((i, j): IngestOutcome => ({ status: fresh[j] ? 'stored' : entry.written.has(i.reading.published_at) ? 'late' : 'duplicate' }));
          },
        ),
      ),
    );
    const { onStored } = deps;
    if (onStored) await Promise.all([...storedByFarm].map(([farm, devices]) => onStored(farm, devices).catch((err: unknown) => deps.log.warn('live push failed', { farm, err }))));
    return results;
  };

  /** One message: a batch of one (the outcome, or the error thrown). */
  const ingestOne = async (input: unknown): Promise<IngestOutcome> => {
    const [result] = await ingestBatch([input]);
    if (!result) throw new Error('ingest: no result');
    if (!result.ok) throw result.error;
    return result.outcome;
  };
  return Object.assign(ingestOne, { batch: ingestBatch });
};
