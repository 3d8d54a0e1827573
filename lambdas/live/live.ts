import { MSG_SIGN_IN_AGAIN } from '../../shared/api/actions/profile';
import { LIVE_BAD_MESSAGE, LIVE_FORBIDDEN, subscribeMessageSchema, type LiveReading, type LiveServerMessage } from '../../shared/live/protocol';
import type { Reading } from '../../shared/telemetry/reading';
import { roleFromGroups } from '../../shared/roles';
import type { ConnectionsRepository, LiveAuthority, LiveSender } from '../ports/live';
import { callerFromClaims, type Caller } from '../lib/caller';
import { farmOf } from '../lib/dispatch';
import { cameThroughEdge } from '../lib/origin-check';
import type { Logger } from '../lib/logger';
import type { FarmReader } from '../ports/action-ports';
import type { TokenVerifier } from '../ports/cognito';

/** What API Gateway's WebSocket API hands the function (the fields used), and what it wants back. */
export interface LiveEvent {
  readonly requestContext: { readonly routeKey: string; readonly connectionId: string };
  /** $connect only: the handshake's headers (the edge's secret header among them). */
  readonly headers?: Readonly<Record<string, string | undefined>> | null;
  readonly body?: string | null;
}
export interface LiveResult {
  readonly statusCode: number;
  readonly body?: string;
}

export interface LiveDeps {
  readonly verifier: TokenVerifier;
  readonly authority: LiveAuthority;
  readonly connections: ConnectionsRepository;
  readonly farms: FarmReader;
  readonly sender: LiveSender;
  readonly now: () => Date;
  readonly log: Logger;
  /** The web distribution's secret header value (`ORIGIN_VERIFY`); unset locally, where there is no CloudFront. */
  readonly originSecret?: string;
}

const send = async (deps: LiveDeps, connectionId: string, message: LiveServerMessage) => {
  if (!(await deps.sender.post(connectionId, message))) await deps.connections.removeConnection(connectionId);
};

/**
 * The live-updates WebSocket's routes: $connect checks only that the handshake came through the
 * web distribution (403 otherwise; no credentials travel in a URL), $disconnect forgets the
 * connection, and a `subscribe` message (sent again every LIVE_RENEW_SECONDS) watches one farm
 * after checking the token, the person's groups *now* (Cognito's, not the token's), the session
 * (not signed out everywhere) and the same farm check as the API's farm actions (linked to the
 * farm, or an Admin with an authenticator app). A refused subscription is told so and forgotten:
 * its pushes stop at once, or when its last good one lapses.
 */
export const makeLiveHandler = (deps: LiveDeps) => async (event: LiveEvent): Promise<LiveResult> => {
  const { routeKey, connectionId } = event.requestContext;
  if (routeKey === '$connect') {
    // Only through the web distribution and its WAF, not the execute-api address.
    return cameThroughEdge(event.headers, deps.originSecret) ? { statusCode: 200 } : { statusCode: 403, body: 'Forbidden' };
  }
  if (routeKey === '$disconnect') {
    await deps.connections.removeConnection(connectionId);
    return { statusCode: 200 };
  }
  // subscribe, and anything else ($default)
  let parsed: ReturnType<typeof subscribeMessageSchema.safeParse>;
  try {
    parsed = subscribeMessageSchema.safeParse(JSON.parse(event.body ?? ''));
  } catch {
    parsed = subscribeMessageSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    await send(deps, connectionId, { type: 'error', message: LIVE_BAD_MESSAGE });
    return { statusCode: 400, body: LIVE_BAD_MESSAGE };
  }
  const refuse = async (statusCode: number, message: string): Promise<LiveResult> => {
    await deps.connections.removeConnection(connectionId);
    await send(deps, connectionId, { type: 'error', message });
    return { statusCode, body: message };
  };
  const { farm, token } = parsed.data;
  const caller = await currentCaller(deps, token);
  if (!caller) return refuse(401, MSG_SIGN_IN_AGAIN);
  try {
    await farmOf({ farms: deps.farms }, caller, farm);
  } catch {
    return refuse(403, LIVE_FORBIDDEN);
  }
  await deps.connections.watch(connectionId, caller.userId, farm, deps.now());
  await send(deps, connectionId, { type: 'subscribed', farm });
  return { statusCode: 200 };
};

/** The caller behind a subscription's token, with their groups as Cognito has them now; undefined when the token or the session is not good. */
const currentCaller = async (deps: Pick<LiveDeps, 'verifier' | 'authority'>, token: string): Promise<Caller | undefined> => {
  let claims: Awaited<ReturnType<TokenVerifier['verify']>>;
  try {
    claims = await deps.verifier.verify(token);
  } catch {
    return undefined;
  }
  if (claims.token_use !== 'access') return undefined;
  const caller = callerFromClaims(claims);
  const [active, groups] = await Promise.all([deps.authority.sessionActive(token), deps.authority.currentGroups(caller.username)]);
  if (!active || !groups) return undefined;
  return { ...caller, groups, role: roleFromGroups(groups) };
};

/** A stored reading as the live message says it. */
const liveReadingOf = (farm: string, device: string, r: Pick<Reading, 'published_at' | 'milk_volume' | 'milk_level' | 'temp1' | 'agitator_status' | 'state_machine'>): LiveReading => ({
  type: 'reading',
  farm,
  device,
  published_at: r.published_at,
  milk_volume: r.milk_volume ?? null,
  milk_level: r.milk_level ?? null,
  temp1: r.temp1 ?? null,
  agitator_status: r.agitator_status ?? null,
  state_machine: r.state_machine ?? null,
});

/** A device's new readings of one ingest batch. */
export interface StoredReadings {
  readonly device: string;
  readonly readings: readonly Reading[];
}

/** Pushes new readings to whoever watches their farm (the ingest calls it after a batch's device commits). */
interface LivePush {
  /** The farm's devices' new readings of one batch: the farm's connections are read once for all of them. */
  readingsStored(farm: string, devices: readonly StoredReadings[]): Promise<void>;
}

/**
 * Each device's newest reading goes to each of the farm's connections (one read of the farm's
 * connections per batch); a connection API Gateway says is gone is forgotten. Best
 * effort: the 120 s refresh is the fallback, so a failure is logged, never thrown into the ingest.
 */
export const makeLivePush = ({ connections, sender, log }: Pick<LiveDeps, 'connections' | 'sender' | 'log'>): LivePush => ({
  async readingsStored(farm, devices) {
    const messages = devices.flatMap(({ device, readings }) => {
      const newest = readings.reduce<Reading | undefined>((a, r) => (!a || r.published_at > a.published_at ? r : a), undefined);
      return newest ? [liveReadingOf(farm, device, newest)] : [];
    });
    if (messages.length === 0) return;
    try {
      const ids = await connections.listFarmConnections(farm);
      await Promise.all(
        ids.map(async (id) => {
          for (const message of messages) {
            try {
              if (!(await sender.post(id, message))) {
                await connections.removeConnection(id);
                return;
              }
            } catch (err) {
              log.warn('live push to a connection failed', { farm, connection: id, err });
            }
          }
        }),
      );
    } catch (err) {
      log.warn('live push failed', { farm, devices: messages.map((m) => m.device), err });
    }
  },
});
