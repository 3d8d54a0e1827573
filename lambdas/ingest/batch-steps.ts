import { sameReading, readingKey, implausibleForVat, toReading, type Reading } from '../../shared/telemetry/reading';
import type { ReadingsRepository } from '../ports/readings';
import type { makeDeviceState } from './device-state';
import type { Candidate, IngestOutcome, makeMessageChecks, RejectEvent } from './message-checks';

/**
 * The ingest batch's steps (./ingest.ts runs them in order). Each step settles some messages —
 * an outcome, or the error that failed them (to be retried) — and hands the rest on; a message is
 * in exactly one of the two, so every message of the batch ends with the outcome of the step that
 * settled it.
 */

/** A message's result in a batch: its outcome, or the error that failed it (to be retried). */
export type BatchResult = { readonly ok: true; readonly outcome: IngestOutcome } | { readonly ok: false; readonly error: Error };
/** Messages settled by a step, by their index in the batch. */
type Settled = (readonly [index: number, result: BatchResult])[];

/** A reading of a batch for its device, with where it came from. */
interface Item {
  readonly index: number;
  readonly reading: Reading;
  readonly raw: string;
  readonly ev: RejectEvent;
}
/** A device's readings still in the batch. `written`: the instants not yet stored (a reading already stored is not written again). */
interface DeviceItems {
  readonly deviceId: string;
  readonly name: string;
  readonly farm: string;
  readonly items: readonly Item[];
  readonly written: ReadonlySet<string>;
}
type Group = { readonly thing: string; readonly candidates: { readonly index: number; readonly candidate: Candidate }[] };

type Checks = ReturnType<typeof makeMessageChecks>;
type Devices = ReturnType<typeof makeDeviceState>;
/** The ingest's per-device queue: one device's work one at a time within this process. */
type Queue = <T>(key: string, work: () => Promise<T>) => Promise<T>;

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
const ok = (index: number, outcome: IngestOutcome) => [index, { ok: true, outcome }] as const;
const failed = (indexes: readonly number[], err: unknown): Settled => indexes.map((i) => [i, { ok: false, error: asError(err) }] as const);
const indexesOf = (entries: readonly DeviceItems[]) => entries.flatMap((e) => e.items.map((i) => i.index));

/** 1. Each message checked on its own (knode messages end here); the vat readings grouped by device, in batch order. */
export const checkMessages = async (checks: Checks, inputs: readonly unknown[]): Promise<{ settled: Settled; groups: Map<string, Group> }> => {
  const groups = new Map<string, Group>();
  const settled: Settled = [];
  await Promise.all(
    inputs.map(async (input, index) => {
      try {
        const prepared = await checks.prepare(input);
        if (!('message' in prepared)) return void settled.push(ok(index, prepared));
        const group = groups.get(prepared.deviceId) ?? { thing: prepared.thing, candidates: [] };
        group.candidates.push({ index, candidate: prepared });
        groups.set(prepared.deviceId, group);
      } catch (err) {
        settled.push(...failed([index], err));
      }
    }),
  );
  return { settled, groups };
};

/** 2. Per device: the device known and in service, each reading plausible for its vat, one reading per instant. */
export const acceptForDevices = async (checks: Checks, devices: Devices, groups: Map<string, Group>): Promise<{ settled: Settled; accepted: DeviceItems[] }> => {
  const settled: Settled = [];
  const accepted: DeviceItems[] = [];
  await Promise.all(
    [...groups].map(async ([deviceId, { thing, candidates }]) => {
      try {
        const found = (await devices.peek(deviceId))?.device;
        const items: Item[] = [];
        const byInstant = new Map<string, Reading>();
        const outcomes = await Promise.all(
          candidates.map(async ({ index, candidate: { ev, message } }) => {
            if (!found) return ok(index, await checks.reject(ev, `unknown device ${thing}`));
            if (found.status !== 1) return ok(index, await checks.reject(ev, `device ${thing} is retired`));
            const absurd = implausibleForVat(message, found);
            if (absurd) return ok(index, await checks.reject(ev, absurd));
            const reading = toReading(message, found);
            const twin = byInstant.get(reading.published_at);
            if (twin && sameReading(twin, reading)) return ok(index, { status: 'duplicate' });
            if (twin) return ok(index, await checks.reject(ev, `another message of ${thing} has published_at ${reading.published_at}`));
            byInstant.set(reading.published_at, reading);
            items.push({ index, reading, raw: ev.payloadText, ev });
            return undefined;
          }),
        );
        settled.push(...outcomes.filter((o) => o !== undefined));
        if (found && items.length > 0) accepted.push({ deviceId, name: found.name, farm: found.farm_id, items, written: new Set() });
      } catch (err) {
        settled.push(...failed(candidates.map((c) => c.index), err));
      }
    }),
  );
  return { settled, accepted };
};

/** 3. Against what is stored: an instant already stored with the same reading is kept (not written again), with another reading refused. */
export const matchStored = async (checks: Checks, readings: Pick<ReadingsRepository, 'getReadings'>, accepted: readonly DeviceItems[]): Promise<{ settled: Settled; fresh: DeviceItems[] }> => {
  let stored: Map<string, Reading>;
  try {
    stored = await readings.getReadings(accepted.flatMap((a) => a.items.map((i) => ({ deviceId: a.deviceId, publishedAt: i.reading.published_at }))));
  } catch (err) {
    return { settled: failed(indexesOf(accepted), err), fresh: [] };
  }
  const settled: Settled = [];
  const fresh: DeviceItems[] = [];
  for (const entry of accepted) {
    const kept: Item[] = [];
    const written = new Set<string>();
    for (const item of entry.items) {
      const existing = stored.get(readingKey(entry.deviceId, item.reading.published_at));
      if (!existing) written.add(item.reading.published_at);
      if (!existing || sameReading(existing, item.reading)) kept.push(item);
      else settled.push(ok(item.index, await checks.reject(item.ev, `another message of ${entry.name} has published_at ${item.reading.published_at}`)));
    }
    if (kept.length > 0) fresh.push({ ...entry, items: kept, written });
  }
  return { settled, fresh };
};

/**
 * 4. A replay intent under the lock for each device with new readings older than its cursor, then
 *    the new readings (BatchWriteItem, 25 a request, every device at once).
 */
export const writeReadings = async (devices: Devices, readings: Pick<ReadingsRepository, 'writeReadings'>, queue: Queue, fresh: readonly DeviceItems[]): Promise<{ settled: Settled; written: DeviceItems[] }> => {
  const settled: Settled = [];
  const newOf = (e: DeviceItems) => e.items.filter((i) => e.written.has(i.reading.published_at));
  const intended = (
    await Promise.all(
      fresh.map(async (entry) => {
        try {
          await queue(entry.deviceId, () => devices.commitIntent(entry.deviceId, newOf(entry).map((i) => i.reading)));
          return entry;
        } catch (err) {
          settled.push(...failed(indexesOf([entry]), err));
          return undefined;
        }
      }),
    )
  ).filter((e) => e !== undefined);
  try {
    await readings.writeReadings(intended.flatMap((e) => newOf(e).map((i) => ({ deviceId: e.deviceId, reading: i.reading, raw: i.raw }))));
  } catch (err) {
    return { settled: [...settled, ...failed(indexesOf(intended), err)], written: [] };
  }
  return { settled, written: intended };
};

/**
 * 5. One commit per device, devices in parallel, each device's batches one at a time: stored (new
 *    to the device's state), late (stored, replayed into it) or a duplicate; the newly stored
 *    readings by farm, for the live push.
 */
export const commitDevices = async (devices: Devices, queue: Queue, written: readonly DeviceItems[]): Promise<{ settled: Settled; storedByFarm: Map<string, { device: string; readings: Reading[] }[]> }> => {
  const settled: Settled = [];
  const storedByFarm = new Map<string, { device: string; readings: Reading[] }[]>();
  await Promise.all(
    written.map(async (entry) => {
      try {
        const fresh = await queue(entry.deviceId, () => devices.commitBatch(entry.deviceId, entry.items.map((i) => i.reading), entry.written));
        const stored = entry.items.filter((_, j) => fresh[j]).map((i) => i.reading);
        if (stored.length > 0) storedByFarm.set(entry.farm, [...(storedByFarm.get(entry.farm) ?? []), { device: entry.deviceId, readings: stored }]);
        entry.items.forEach((item, j) => settled.push(ok(item.index, { status: fresh[j] ? 'stored' : entry.written.has(item.reading.published_at) ? 'late' : 'duplicate' })));
      } catch (err) {
        settled.push(...failed(indexesOf([entry]), err));
      }
    }),
  );
  return { settled, storedByFarm };
};
