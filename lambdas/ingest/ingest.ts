import type { Reading } from '../../shared/telemetry/reading';
import type { Ports } from '../ports/action-ports';
import type { Logger } from '../lib/logger';
import { makeDeviceState, type AlertHook } from './device-state';
import { acceptForDevices, checkMessages, commitDevices, matchStored, writeReadings, type BatchResult } from './batch-steps';
import { makeMessageChecks, type IngestOutcome } from './message-checks';

export type { BatchResult } from './batch-steps';

interface IngestDeps {
  readonly farms: Ports['ingestRecords'];
  readonly readings: Ports['readingsWrite'];
  readonly now: () => Date;
  readonly log: Logger;
  /**
   * The alert engine, with a device's in-order readings of a batch in one step: part of
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
    const checked = await checkMessages(checks, inputs);
    const accepted = await acceptForDevices(checks, devices, checked.groups);
    const matched = await matchStored(checks, readings, accepted.accepted);
    const written = await writeReadings(devices, readings, queue, matched.fresh);
    const committed = await commitDevices(devices, queue, written.written);
    const results = new Array<BatchResult | undefined>(inputs.length);
    for (const [index, result] of [...checked.settled, ...accepted.settled, ...matched.settled, ...written.settled, ...committed.settled]) results[index] = result;
    const { onStored } = deps;
    if (onStored) await Promise.all([...committed.storedByFarm].map(([farm, devices]) => onStored(farm, devices).catch((err: unknown) => deps.log.warn('live push failed', { farm, err }))));
    // A message no step settled would be a bug in the steps: it fails (and is retried) rather than pass as anything.
    return results.map((r, index) => r ?? { ok: false, error: new Error(`ingest: message ${index} of the batch was not settled`) });
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
