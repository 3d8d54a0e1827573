import { createHash } from 'node:crypto';
import * as z from 'zod';
import { RAW_ARCHIVE_DAYS } from '../../shared/constants';
import { canonicalTime } from '../../shared/telemetry/reading';
import { knodeMessageSchema, parseDeviceTopic, telemetryMessageSchema, type TelemetryMessage } from '../../shared/telemetry/device-message';
import type { Ports } from '../ports/action-ports';
import type { ThingOwner } from '../ports/farms';
import type { Logger } from '../lib/logger';

/**
 * What the IoT topic rule hands the ingest (cdk/lib/constructs/telemetry.ts):
 * `SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM 'dts/+/+'`.
 * The payload travels base64-encoded so a message that is not JSON still reaches the handler
 * and ends in the rejected store with a reason, instead of being dropped by the rule.
 */
const iotRuleEventSchema = z.object({
  payload: z.string(),
  topic: z.string(),
  received_at: z.number(),
});

export type IngestOutcome =
  | { readonly status: 'stored' | 'late' | 'duplicate' | 'knode' }
  | { readonly status: 'rejected'; readonly reason: string };

export interface RejectEvent {
  readonly topic: string;
  readonly payloadText: string;
  readonly receivedAt: string;
}
/** A vat message that passed the checks needing no device: its device and parsed content. */
export interface Candidate {
  readonly ev: RejectEvent;
  readonly thing: string;
  readonly deviceId: string;
  readonly message: TelemetryMessage;
}

/** A device clock may run a little fast; anything further in the future is a broken clock. */
const MAX_FUTURE_MS = 5 * 60_000;
/** Older than the raw archive window is no longer a late message but a broken clock or replay. */
const MAX_AGE_MS = RAW_ARCHIVE_DAYS * 86_400_000;
const THING_CACHE_MS = 5 * 60_000;

const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
};

/** The checks a message passes before its device's readings are looked at; a knode message is handled here entirely. */
export const makeMessageChecks = (deps: { farms: Ports['ingestRecords']; readings: Ports['readingsWrite']; now: () => Date; log: Logger }) => {
  const { farms, readings, log } = deps;
  const clock = () => deps.now().getTime();
  const things = new Map<string, { owner: Promise<ThingOwner | undefined>; at: number }>();

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

  const reject = async (event: RejectEvent, reason: string): Promise<IngestOutcome> => {
    const digest = createHash('sha256').update(`${event.topic}\n${event.payloadText}`).digest('hex').slice(0, 32);
    await readings.putRejected({ received_at: event.receivedAt, topic: event.topic, reason, payload: event.payloadText }, digest);
    log.warn('message rejected', { topic: event.topic, reason });
    return { status: 'rejected', reason };
  };

  const checkTime = (publishedAt: string): string | undefined => {
    const t = Date.parse(publishedAt);
    const now = clock();
    if (t > now + MAX_FUTURE_MS) return `published_at ${publishedAt} is in the future`;
    if (t < now - MAX_AGE_MS) return `published_at ${publishedAt} is older than ${RAW_ARCHIVE_DAYS} days`;
    return undefined;
  };

  /** Checks one message up to its device; a knode message is handled here entirely. */
  const prepare = async (input: unknown): Promise<IngestOutcome | Candidate> => {
    const parsedEvent = iotRuleEventSchema.safeParse(input);
    const receivedAt = new Date(parsedEvent.success ? parsedEvent.data.received_at : clock()).toISOString();
    if (!parsedEvent.success) return reject({ topic: '(none)', payloadText: JSON.stringify(input) ?? '', receivedAt }, 'not an IoT rule event');
    const { topic } = parsedEvent.data;
    const payloadText = Buffer.from(parsedEvent.data.payload, 'base64').toString('utf8');
    const ev = { topic, payloadText, receivedAt };

    const route = parseDeviceTopic(topic);
    if (!route) return reject(ev, `topic ${topic} is not dts/<unit>/<vat>/telemetry, dts/<thing>/telemetry or dts/<thing>/knode`);
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

  return { prepare, reject };
};
