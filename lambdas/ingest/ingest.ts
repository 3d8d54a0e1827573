import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RAW_ARCHIVE_DAYS } from '../../shared/constants';
import type { Device, LastUpdated } from '../../shared/entities/device';
import { activityId, type Activity, type ActivityKind } from '../../shared/telemetry/activities';
import { detect, initialDetectorState, type DetectorState } from '../../shared/telemetry/detect';
import { knodeMessageSchema, parseDeviceTopic, telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { canonicalTime, displayTemperature, displayVolume, implausibleForVat, toReading, type Reading } from '../../shared/telemetry/reading';
import type { FarmRepository, IngestRecord, ThingOwner } from '../adapters/dynamodb/farms-repository';
import { dayOf, hourOf } from '../adapters/dynamodb/keys';
import type { ReadingsRepository } from '../adapters/dynamodb/readings-repository';
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

const NO_PENDING: Pending = { activities: [], deletions: [], snapshots: [], compact: [] };
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

  const reject = async (event: { topic: string; payloadText: string; receivedAt: string }, reason: string): Promise<IngestOutcome> => {
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

  /** One reading of one device, under the optimistic lock on the device item. */
  const processReading = async (first: Loaded, reading: Reading, put: 'created' | 'duplicate'): Promise<IngestOutcome> => {
    const deviceId = first.device._id;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(250, 5 * 2 ** attempt) * (0.5 + Math.random())));
      const loaded = attempt === 0 ? first : await loadDevice(deviceId, true);
      if (!loaded) throw new Error(`device ${deviceId} vanished during ingest`);
      const vat = loaded.device;
      let record: IngestRecord | undefined = loaded.ingest;
      let current = record?.state as IngestState | undefined;

      // Side effects a previous invocation committed but did not finish (crash, timeout).
      if (record && current && hasPending(current.pending)) {
        await flush(vat._id, vat.farm_id, current.pending, record.n);
        const cleared: IngestState = { ...current, pending: NO_PENDING };
        if (!(await farms.commitIngest(vat._id, { n: record.n, state: cleared }, record.n))) continue;
        current = cleared;
        record = { n: record.n, state: cleared };
        remember(loaded, record, undefined);
      }

      const n = record?.n ?? 0;
      const cursor = current?.cursor ?? null;
      if (cursor !== null && reading.published_at <= cursor && put === 'duplicate') return { status: 'duplicate' };

      let next: IngestState;
      let nextN: number;
      let lastUpdated: LastUpdated | undefined;
      if (cursor === null || reading.published_at > cursor) {
        const detector = current?.detector ?? initialDetectorState();
        const step = detect(detector, reading, vat);
        const newHour = cursor === null || hourOf(reading.published_at) !== hourOf(cursor);
        next = {
          cursor: reading.published_at,
          detector: step.state,
          pending: {
            activities: step.changed,
            deletions: [],
            snapshots: newHour ? [{ hour: hourOf(reading.published_at), state: { cursor, n, detector } }] : [],
            compact: cursor !== null && dayOf(reading.published_at) !== dayOf(cursor) ? [dayOf(cursor)] : [],
          },
        };
        nextN = n + 1;
        lastUpdated = lastUpdatedOf(reading);
      } else {
        // A late message: replay the detectors from the snapshot before it up to the cursor.
        const replay = await replayFrom(vat, reading.published_at, cursor);
        next = { cursor, detector: replay.detector, pending: replay.pending };
        nextN = replay.n;
      }

      const seenAt = deps.now().toISOString();
      if (!(await farms.commitIngest(vat._id, { n: nextN, state: next }, record?.n, lastUpdated && { lastUpdated, seenAt }))) continue;
      const live = lastUpdated && { lastUpdated, seenAt };
      remember(loaded, { n: nextN, state: next }, live);
      if (hasPending(next.pending)) {
        await flush(vat._id, vat.farm_id, next.pending, nextN);
        // If someone committed meanwhile, they flushed this outbox too and the clear fails harmlessly.
        const cleared = { n: nextN, state: { ...next, pending: NO_PENDING } };
        if (await farms.commitIngest(vat._id, cleared, nextN)) remember(loaded, cleared, live);
      }
      if (lastUpdated && deps.onReading) await deps.onReading({ device: vat, reading });
      return { status: lastUpdated ? 'stored' : 'late' };
    }
    throw new Error(`ingest of ${deviceId} ${reading.published_at}: still contended after ${MAX_ATTEMPTS} attempts`);
  };

  const replayFrom = async (vat: Device, lateAt: string, cursor: string) => {
    const snapshot = await readings.getSnapshotAtOrBefore(vat._id, lateAt);
    const fromHour = snapshot?.hour ?? hourOf(lateAt);
    let state: Snapshot = (snapshot?.state as Snapshot | undefined) ?? { cursor: null, n: 0, detector: initialDetectorState() };
    const stream = await readings.readPartitions(vat._id, fromHour, cursor);
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
    const lateDay = dayOf(lateAt);
    return {
      n: state.n,
      detector: state.detector,
      pending: {
        activities: [...changed.values()],
        deletions,
        snapshots,
        compact: lateDay < dayOf(cursor) ? [lateDay] : [],
        stalePartials: [lateDay],
      } satisfies Pending,
    };
  };

  return async (input: unknown): Promise<IngestOutcome> => {
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

    return queue(owner.device_id, async () => {
      const found = await loadDevice(owner.device_id);
      if (!found) return reject(ev, `unknown device ${route.thing}`);
      if (found.device.status !== 1) return reject(ev, `device ${route.thing} is retired`);
      const absurd = implausibleForVat(msg.data, found.device);
      if (absurd) return reject(ev, absurd);
      const reading = toReading(msg.data, found.device);
      const put = await readings.putReading(found.device._id, reading, payloadText);
      if (put === 'conflict') return reject(ev, `another message of ${route.thing} has published_at ${reading.published_at}`);
      return processReading(found, reading, put);
    });
  };
};
