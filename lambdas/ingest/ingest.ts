import { createHash } from 'node:crypto';
import * as z from 'zod';
import { RAW_ARCHIVE_DAYS } from '../../shared/constants';
import type { Device, LastUpdated } from '../../shared/entities/device';
import { activityId, type Activity, type ActivityKind } from '../../shared/telemetry/activities';
import { detect, initialDetectorState, type DetectorState } from '../../shared/telemetry/detect';
import { knodeMessageSchema, parseDeviceTopic, telemetryMessageSchema, type TelemetryMessage } from '../../shared/telemetry/device-message';
import { canonicalTime, displayTemperature, displayVolume, implausibleForVat, toReading, type Reading } from '../../shared/telemetry/reading';
import type { FarmRepository, IngestRecord, ThingOwner } from '../adapters/dynamodb/farms-repository';
import type { ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { readingKey, sameReading } from '../../shared/telemetry/reading';
import { dayOf, hourOf } from '../../shared/time/utc';
import type { Logger } from '../lib/logger';

/**
 * What the IoT topic rule hands the ingest (cdk/lib/constructs/telemetry.ts):
 * `SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM 'dts/+/+'`.
 * The payload travels base64-encoded so a message that is not JSON still reaches the handler
 * and ends in the rejected store with a reason, instead of being dropped by the rule.
 */
export const iotRuleEventSchema = z.object({
  payload: z.string(),
  topic: z.string(),
  received_at: z.number(),
});
export type IotRuleEvent = z.infer<typeof iotRuleEventSchema>;

export type IngestOutcome =
  | { readonly status: 'stored' | 'late' | 'duplicate' | 'knode' }
  | { readonly status: 'rejected'; readonly reason: string };

/** A message's result in a batch: its outcome, or the error that failed it (to be retried). */
export type BatchResult = { readonly ok: true; readonly outcome: IngestOutcome } | { readonly ok: false; readonly error: Error };

interface RejectEvent {
  readonly topic: string;
  readonly payloadText: string;
  readonly receivedAt: string;
}
/** A vat message that passed the checks needing no device: its device and parsed content. */
interface Candidate {
  readonly ev: RejectEvent;
  readonly thing: string;
  readonly deviceId: string;
  readonly message: TelemetryMessage;
}
/** A reading of a batch for its device: newly stored, or found stored already (the same message again). */
interface DeviceItem {
  readonly reading: Reading;
  readonly put: 'created' | 'duplicate';
}
/** Filled in by a later step of the batch. */
const PLACEHOLDER: IngestOutcome = { status: 'duplicate' };

export interface IngestDeps {
  readonly farms: FarmRepository;
  readonly readings: ReadingsRepository;
  readonly now: () => Date;
  readonly log: Logger;
  /**
   * Called with each in-order reading (the device's newest) after its commit: the alert engine's
   * hook (issue 6). Late readings are old news and do not call it.
   */
  readonly onReading?: (ctx: { readonly device: Device; readonly reading: Reading }) => Promise<void>;
}

/** A device clock may run a little fast; anything further in the future is a broken clock. */
const MAX_FUTURE_MS = 5 * 60_000;
/** Older than the raw archive window is no longer a late message but a broken clock or replay. */
const MAX_AGE_MS = RAW_ARCHIVE_DAYS * 86_400_000;
/**
 * Optimistic-lock attempts before the invocation fails (and IoT retries it, then the DLQ keeps
 * it). Two containers on one device is rare, but a backlog upload makes it likely, and a late
 * message's retry is a whole replay: allow many attempts with a jittered, capped backoff.
 */
const MAX_ATTEMPTS = 40;
/**
 * A warm container remembers what it read: thing → owner, and each device with its ingest
 * state. The state is safe to reuse because every commit is conditional on n: if another
 * container committed meanwhile, the commit fails and the device is read again. The vat config
 * (calibration) is re-read at least this often.
 */
const DEVICE_CACHE_MS = 60_000;
const THING_CACHE_MS = 5 * 60_000;

/** Side effects of a committed state, written after the commit (an outbox on the device item). */
interface Pending {
  readonly activities: readonly Activity[];
  readonly deletions: readonly { readonly kind: ActivityKind; readonly start: string }[];
  readonly snapshots: readonly { readonly hour: string; readonly state: Snapshot }[];
  readonly compact: readonly string[];
  readonly stalePartials?: readonly string[];
}
/** The detector state after `n` readings, the newest of them at `cursor`. */
interface Snapshot {
  readonly cursor: string | null;
  readonly n: number;
  readonly detector: DetectorState;
}
/** What the device item keeps for the ingest (the n beside it is the lock). */
interface IngestState {
  readonly cursor: string | null;
  readonly detector: DetectorState;
  readonly pending: Pending;
}

const hasPending = (p: Pending) => p.activities.length + p.deletions.length + p.snapshots.length + p.compact.length + (p.stalePartials?.length ?? 0) > 0;

/** The device's live values as the dashboard shows them (farmer §9 display rounding). */
export const lastUpdatedOf = (r: Reading): LastUpdated => ({
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

/** A per-key queue: one device's messages are processed one at a time within this process. */
const keyedQueue = () => {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
};

const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
};

/**
 * The ingest: validates a device message, stores it (reading + raw archive), keeps the device's
 * live values and steps the activity detectors. Idempotent and order-independent: a message
 * delivered twice changes nothing the second time, and a late message replays the detectors from
 * the snapshot before it, so any delivery order ends in the state of in-order delivery.
 */
export const makeIngest = (deps: IngestDeps) => {
  const { farms, readings, log } = deps;
  const queue = keyedQueue();
  type Loaded = NonNullable<Awaited<ReturnType<FarmRepository['getDeviceForIngest']>>>;
  const things = new Map<string, { owner: Promise<ThingOwner | undefined>; at: number }>();
  const devices = new Map<string, { loaded: Loaded; at: number }>();
  const clock = () => deps.now().getTime();
  /** The outbox n this container has flushed, per device (so it is not flushed twice). */
  const flushed = new Map<string, number>();

  /** One lookup per thing at a time: a burst of its messages waits for the same answer. */
  const resolveThing = async (name: string): Promise<ThingOwner | undefined> => {
    const hit = things.get(name);
    if (hit && clock() - hit.at < THING_CACHE_MS) return hit.owner;
    const owner = farms.resolveThing(name);
    things.set(name, { owner, at: clock() });
    // An unknown thing is not remembered (it may be provisioned a moment later), nor a failed lookup.
    owner.then((o) => (o ? undefined : things.delete(name)), () => things.delete(name));
    return owner;
  };
  const loadDevice = async (deviceId: string, fresh = false): Promise<Loaded | undefined> => {
    const hit = devices.get(deviceId);
    if (!fresh && hit && clock() - hit.at < DEVICE_CACHE_MS) return hit.loaded;
    const loaded = await farms.getDeviceForIngest(deviceId);
    if (loaded) devices.set(deviceId, { loaded, at: clock() });
    else devices.delete(deviceId);
    return loaded;
  };
  /** After a commit this container's copy is the stored one. */
  const remember = (loaded: Loaded, ingest: IngestRecord, live: { lastUpdated: LastUpdated; seenAt: string } | undefined) => {
    const hit = devices.get(loaded.device._id);
    const device = live ? { ...loaded.device, last_updated: live.lastUpdated, seen_at: live.seenAt } : loaded.device;
    devices.set(loaded.device._id, { loaded: { device, ingest }, at: hit?.at ?? clock() });
  };

  const reject = async (event: RejectEvent, reason: string): Promise<IngestOutcome> => {
    const digest = createHash('sha256').update(`${event.topic}\n${event.payloadText}`).digest('hex').slice(0, 32);
    await readings.putRejected({ received_at: event.receivedAt, topic: event.topic, reason, payload: event.payloadText }, digest);
    log.warn('message rejected', { topic: event.topic, reason });
    return { status: 'rejected', reason };
  };

  const checkTime = (publishedAt: string): string | undefined => {
    const t = Date.parse(publishedAt);
    const now = deps.now().getTime();
    if (t > now + MAX_FUTURE_MS) return `published_at ${publishedAt} is in the future`;
    if (t < now - MAX_AGE_MS) return `published_at ${publishedAt} is older than ${RAW_ARCHIVE_DAYS} days`;
    return undefined;
  };

  const flush = async (deviceId: string, farmId: string, pending: Pending, n: number) => {
    await Promise.all([
      ...pending.snapshots.map((s) => readings.putSnapshot(deviceId, s.hour, s.state, s.state.n)),
      ...pending.activities.map((a) => readings.putActivity({ ...a, device_id: deviceId, farm_id: farmId }, n)),
      ...pending.deletions.map((d) => readings.deleteActivity(deviceId, d.kind, d.start, n)),
    ]);
    // Compaction reads the day's readings: after the rest, and one day at a time.
    for (const day of pending.compact) await readings.compactDay(deviceId, day);
    // A late reading's day may have a partial bucket the range reads trust up to its end: drop it.
    for (const day of pending.stalePartials ?? []) await readings.dropPartial(deviceId, day);
  };

  /**
   * A device's readings from one batch (already stored, or found stored as duplicates), under the
   * optimistic lock on the device item: one commit for all of them. Readings newer than the
   * cursor step the detectors in time order; if any is older (late), the detectors are replayed
   * instead from the snapshot before the earliest late one through the newest reading.
   */
  const processDevice = async (first: Loaded, items: readonly DeviceItem[]): Promise<IngestOutcome[]> => {
    const deviceId = first.device._id;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(250, 5 * 2 ** attempt) * (0.5 + Math.random())));
      const loaded = attempt === 0 ? first : await loadDevice(deviceId, true);
      if (!loaded) throw new Error(`device ${deviceId} vanished during ingest`);
      const vat = loaded.device;
      const record: IngestRecord | undefined = loaded.ingest;
      const current = record?.state as IngestState | undefined;

      // Side effects a previous invocation committed but did not finish (crash, timeout). This
      // container's own outbox is flushed right after its commit and not flushed twice.
      if (record && current && hasPending(current.pending) && flushed.get(deviceId) !== record.n) {
        await flush(vat._id, vat.farm_id, current.pending, record.n);
        flushed.set(deviceId, record.n);
      }

      const n = record?.n ?? 0;
      const cursor = current?.cursor ?? null;
      const isNew = (i: DeviceItem) => cursor === null || i.reading.published_at > cursor;
      const fresh = items.filter(isNew).sort((a, b) => (a.reading.published_at < b.reading.published_at ? -1 : 1));
      const late = items.filter((i) => !isNew(i) && i.put === 'created');
      const outcomes = items.map((i): IngestOutcome => ({ status: isNew(i) ? 'stored' : i.put === 'duplicate' ? 'duplicate' : 'late' }));
      if (fresh.length === 0 && late.length === 0) return outcomes;

      const newest = fresh.at(-1)?.reading;
      const through = newest?.published_at ?? (cursor as string);
      const closedDays = (times: readonly string[]) => [...new Set(times.map(dayOf))].filter((d) => d < dayOf(through)).sort();
      let next: IngestState;
      let nextN: number;
      if (late.length > 0) {
        // Late messages: replay from the snapshot before the earliest through the newest reading
        // (the fresh ones of this batch are stored already, so the replay takes them in too).
        const earliest = late.reduce((a, b) => (b.reading.published_at < a ? b.reading.published_at : a), through);
        const replay = await replayFrom(vat, earliest, through);
        const lateDays = [...new Set(late.map((i) => dayOf(i.reading.published_at)))];
        next = {
          cursor: through,
          detector: replay.detector,
          pending: {
            ...replay.pending,
            compact: closedDays([...(cursor ? [cursor] : []), ...late.map((i) => i.reading.published_at), ...fresh.map((i) => i.reading.published_at)]),
            stalePartials: lateDays,
          },
        };
        nextN = replay.n;
      } else {
        let state: Snapshot = { cursor, n, detector: current?.detector ?? initialDetectorState() };
        const changed = new Map<string, Activity>();
        const snapshots: { hour: string; state: Snapshot }[] = [];
        for (const { reading } of fresh) {
          if (state.cursor === null || hourOf(reading.published_at) !== hourOf(state.cursor)) snapshots.push({ hour: hourOf(reading.published_at), state });
          const step = detect(state.detector, reading, vat);
          for (const a of step.changed) changed.set(activityId(vat._id, a), a);
          state = { cursor: reading.published_at, n: state.n + 1, detector: step.state };
        }
        next = {
          cursor: through,
          detector: state.detector,
          pending: { activities: [...changed.values()], deletions: [], snapshots, compact: closedDays([...(cursor ? [cursor] : []), ...fresh.map((i) => i.reading.published_at)]) },
        };
        nextN = state.n;
      }

      const seenAt = deps.now().toISOString();
      const live = newest && { lastUpdated: lastUpdatedOf(newest), seenAt };
      if (!(await farms.commitIngest(vat._id, { n: nextN, state: next }, record?.n, live))) continue;
      remember(loaded, { n: nextN, state: next }, live);
      if (hasPending(next.pending)) {
        await flush(vat._id, vat.farm_id, next.pending, nextN);
        // The outbox stays on the item until the next commit replaces it: a container that loads
        // it meanwhile flushes it again, which is harmless (every write is guarded by n).
        flushed.set(deviceId, nextN);
      }
      if (deps.onReading) for (const { reading } of fresh) await deps.onReading({ device: vat, reading });
      return outcomes;
    }
    throw new Error(`ingest of ${deviceId}: still contended after ${MAX_ATTEMPTS} attempts`);
  };

  const replayFrom = async (vat: Device, lateAt: string, through: string) => {
    const snapshot = await readings.getSnapshotAtOrBefore(vat._id, lateAt);
    const fromHour = snapshot?.hour ?? hourOf(lateAt);
    let state: Snapshot = (snapshot?.state as Snapshot | undefined) ?? { cursor: null, n: 0, detector: initialDetectorState() };
    const stream = await readings.readPartitions(vat._id, fromHour, through);
    const changed = new Map<string, Activity>();
    const snapshots: { hour: string; state: Snapshot }[] = [];
    for (const r of stream) {
      if (state.cursor === null || hourOf(r.published_at) !== hourOf(state.cursor)) snapshots.push({ hour: hourOf(r.published_at), state });
      const step = detect(state.detector, r, vat);
      for (const a of step.changed) changed.set(activityId(vat._id, a), a);
      state = { cursor: r.published_at, n: state.n + 1, detector: step.state };
    }
    // Activities that began inside the window and did not come back from the replay are gone
    // (an outage that the late message filled, say).
    const existing = await readings.listActivities(vat._id, fromHour, '9999');
    const deletions = existing.filter((a) => !changed.has(activityId(vat._id, a))).map((a) => ({ kind: a.kind, start: a.start.published_at }));
    return { n: state.n, detector: state.detector, pending: { activities: [...changed.values()], deletions, snapshots } };
  };

  /** Checks one message up to its device; a knode message is handled here entirely. */
  const prepare = async (input: unknown): Promise<IngestOutcome | Candidate> => {
    const parsedEvent = iotRuleEventSchema.safeParse(input);
    const receivedAt = new Date(parsedEvent.success ? parsedEvent.data.received_at : deps.now().getTime()).toISOString();
    if (!parsedEvent.success) return reject({ topic: '(none)', payloadText: JSON.stringify(input) ?? '', receivedAt }, 'not an IoT rule event');
    const { topic } = parsedEvent.data;
    const payloadText = Buffer.from(parsedEvent.data.payload, 'base64').toString('utf8');
    const ev = { topic, payloadText, receivedAt };

    const route = parseDeviceTopic(topic);
    if (!route) return reject(ev, `topic ${topic} is not dts/<thing>/telemetry or dts/<thing>/knode`);
    let json: unknown;
    try {
      json = JSON.parse(payloadText);
    } catch {
      return reject(ev, 'payload is not valid JSON');
    }
    const owner = await resolveThing(route.thing);
    if (!owner) return reject(ev, `unknown device ${route.thing}`);

    if (route.channel === 'knode') {
      if (owner.kind !== 'knode') return reject(ev, `${route.thing} is not a knode gateway`);
      const msg = knodeMessageSchema.safeParse(json);
      if (!msg.success) return reject(ev, firstIssue(msg.error));
      const late = checkTime(msg.data.published_at);
      if (late) return reject(ev, late);
      await farms.updateKnodeAsset(owner.farm_id, { ...msg.data, published_at: canonicalTime(msg.data.published_at) });
      return { status: 'knode' };
    }

    if (owner.kind !== 'device') return reject(ev, `${route.thing} is a knode gateway, not a vat device`);
    const msg = telemetryMessageSchema.safeParse(json);
    if (!msg.success) return reject(ev, firstIssue(msg.error));
    const bad = checkTime(msg.data.published_at);
    if (bad) return reject(ev, bad);
    return { ev, thing: route.thing, deviceId: owner.device_id, message: msg.data };
  };

  /**
   * A batch of rule events (the stream's records, in order). Per message the outcome, or the
   * error that failed it: a failure fails only the messages of that device. The batch costs one
   * BatchGetItem per 100 readings (the duplicate check), one BatchWriteItem per 25 new ones, and
   * one conditional commit per device, where one message at a time costs two requests or more.
   */
  const ingestBatch = async (inputs: readonly unknown[]): Promise<BatchResult[]> => {
    const results: BatchResult[] = new Array<BatchResult>(inputs.length);
    const settle = async (indexes: readonly number[], work: () => Promise<readonly IngestOutcome[] | IngestOutcome>) => {
      try {
        const out = await work();
        indexes.forEach((i, j) => (results[i] = { ok: true, outcome: Array.isArray(out) ? (out[j] as IngestOutcome) : (out as IngestOutcome) }));
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        for (const i of indexes) results[i] = { ok: false, error };
      }
    };

    // 1. Each message checked on its own; the readings grouped by device, in batch order.
    const groups = new Map<string, { thing: string; candidates: { index: number; candidate: Candidate }[] }>();
    await Promise.all(
      inputs.map((input, index) =>
        settle([index], async () => {
          const prepared = await prepare(input);
          if (!('message' in prepared)) return prepared;
          const group = groups.get(prepared.deviceId) ?? { thing: prepared.thing, candidates: [] };
          group.candidates.push({ index, candidate: prepared });
          groups.set(prepared.deviceId, group);
          return PLACEHOLDER;
        }),
      ),
    );

    // 2. Per device: the device, its checks, and one reading per instant.
    const accepted: { deviceId: string; loaded: Loaded; items: (DeviceItem & { index: number; raw: string; ev: RejectEvent })[] }[] = [];
    await Promise.all(
      [...groups].map(([deviceId, { thing, candidates }]) =>
        settle(
          candidates.map((c) => c.index),
          async () => {
            const found = await loadDevice(deviceId);
            const items: (typeof accepted)[number]['items'] = [];
            const outcomes: IngestOutcome[] = [];
            const byInstant = new Map<string, { reading: Reading; payloadText: string }>();
            for (const { index, candidate } of candidates) {
              const { ev, message } = candidate;
              if (!found) outcomes.push(await reject(ev, `unknown device ${thing}`));
              else if (found.device.status !== 1) outcomes.push(await reject(ev, `device ${thing} is retired`));
              else {
                const absurd = implausibleForVat(message, found.device);
                if (absurd) {
                  outcomes.push(await reject(ev, absurd));
                  continue;
                }
                const reading = toReading(message, found.device);
                const twin = byInstant.get(reading.published_at);
                if (twin && sameReading(twin.reading, reading)) outcomes.push({ status: 'duplicate' });
                else if (twin) outcomes.push(await reject(ev, `another message of ${thing} has published_at ${reading.published_at}`));
                else {
                  byInstant.set(reading.published_at, { reading, payloadText: ev.payloadText });
                  items.push({ index, reading, raw: ev.payloadText, ev, put: 'created' });
                  outcomes.push(PLACEHOLDER);
                }
              }
            }
            if (found && items.length > 0) accepted.push({ deviceId, loaded: found, items });
            return outcomes;
          },
        ),
      ),
    );

    // 3. Duplicates and conflicts against what is stored, then the new readings in batches.
    const failDevice = (entry: (typeof accepted)[number], error: Error) => {
      for (const item of entry.items) results[item.index] = { ok: false, error };
    };
    let stored: Map<string, Reading>;
    try {
      stored = await readings.getReadings(accepted.flatMap((a) => a.items.map((i) => ({ deviceId: a.deviceId, publishedAt: i.reading.published_at }))));
    } catch (err) {
      for (const entry of accepted) failDevice(entry, err instanceof Error ? err : new Error(String(err)));
      return results;
    }
    const toWrite: { deviceId: string; reading: Reading; raw: string }[] = [];
    for (const entry of accepted) {
      const kept: typeof entry.items = [];
      for (const item of entry.items) {
        const existing = stored.get(readingKey(entry.deviceId, item.reading.published_at));
        if (!existing) {
          toWrite.push({ deviceId: entry.deviceId, reading: item.reading, raw: item.raw });
          kept.push(item);
        } else if (sameReading(existing, item.reading)) kept.push({ ...item, put: 'duplicate' });
        else results[item.index] = { ok: true, outcome: await reject(item.ev, `another message of ${entry.loaded.device.name} has published_at ${item.reading.published_at}`) };
      }
      entry.items = kept;
    }
    try {
      await readings.writeReadings(toWrite);
    } catch (err) {
      for (const entry of accepted) failDevice(entry, err instanceof Error ? err : new Error(String(err)));
      return results;
    }

    // 4. One commit per device, devices in parallel, each device's batches one at a time.
    await Promise.all(
      accepted
        .filter((entry) => entry.items.length > 0)
        .map((entry) =>
          settle(
            entry.items.map((i) => i.index),
            () => queue(entry.deviceId, () => processDevice(entry.loaded, entry.items)),
          ),
        ),
    );
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
