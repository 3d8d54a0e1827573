import { describe, expect, it } from 'vitest';
import { MSG_SIGN_IN_AGAIN } from '../../shared/api/actions/profile';
import { LIVE_FORBIDDEN } from '../../shared/live/protocol';
import { createLogger } from '../lib/logger';
import { ORIGIN_HEADER } from '../ports/function-settings';
import { makeLiveHandler, type LiveDeps } from './live';

/**
 * The live socket in AWS (cdk/lib/constructs/live.ts): the handshake only through the web
 * distribution, which adds the origin secret's header, and no credentials in it; each
 * subscription then checks the token and asks Cognito for the person's groups and session.
 */
const SECRET = 'edge-secret-value-0123456789';
const NOW = new Date('2026-11-26T04:00:00.000Z');

interface World {
  groups: Record<string, string[] | undefined>;
  signedOut: Set<string>;
  linked: Set<string>;
  connected: string[];
  subscribed: string[];
  removed: string[];
  sent: unknown[];
}
const world = (): World => ({ groups: { u1: [], u2: ['Admin'] }, signedOut: new Set(), linked: new Set(['u1/farm-1']), connected: [], subscribed: [], removed: [], sent: [] });

const deps = (w: World, originSecret?: string): LiveDeps => ({
  verifier: {
    verify: async (token: string) => {
      const [use, sub] = token.split(':');
      if (!sub) throw new Error('bad token');
      return { sub, username: sub, token_use: use, 'cognito:groups': ['Admin'], 'vatman:totp': '1', auth_time: '2' };
    },
  } as unknown as LiveDeps['verifier'],
  authority: { currentGroups: async (u) => w.groups[u], sessionActive: async (t) => !w.signedOut.has(t) },
  connections: {
    watch: async (id: string, _user: string, farm: string) => void (w.connected.push(id), w.subscribed.push(`${id}/${farm}`)),
    removeConnection: async (id: string) => void w.removed.push(id),
  } as unknown as LiveDeps['connections'],
  farms: { isLinked: async (u: string, f: string) => w.linked.has(`${u}/${f}`), getFarm: async (f: string) => ({ _id: f }) } as unknown as LiveDeps['farms'],
  sender: { post: async (_id: string, m: unknown) => (w.sent.push(m), true) },
  now: () => NOW,
  log: createLogger({}, 'error'),
  ...(originSecret ? { originSecret } : {}),
});

describe('the live socket handshake ($connect)', () => {
  const connect = (d: LiveDeps, headers: Record<string, string>) => makeLiveHandler(d)({ requestContext: { routeKey: '$connect', connectionId: 'c0' }, headers });

  it("refuses a handshake without the edge's header, or with another value (403)", async () => {
    expect(await connect(deps(world(), SECRET), {})).toEqual({ statusCode: 403, body: 'Forbidden' });
    expect(await connect(deps(world(), SECRET), { [ORIGIN_HEADER]: 'guess' })).toEqual({ statusCode: 403, body: 'Forbidden' });
  });

  it('accepts one through the edge (the header in any case) with no token, and stores nothing until a subscription', async () => {
    const w = world();
    expect(await connect(deps(w, SECRET), { 'X-Vatman-Origin-Verify': SECRET })).toEqual({ statusCode: 200 });
    expect(await connect(deps(w), {})).toEqual({ statusCode: 200 });
    expect(w.connected).toEqual([]);
  });
});

describe('a subscription', () => {
  const subscribe = (w: World, token: string, farm = 'farm-1') =>
    makeLiveHandler(deps(w))({ requestContext: { routeKey: 'subscribe', connectionId: 'c1' }, body: JSON.stringify({ action: 'subscribe', farm, token }) });

  it("watches a linked farm with an access token, and a renewal extends it", async () => {
    const w = world();
    expect(await subscribe(w, 'access:u1')).toEqual({ statusCode: 200 });
    expect(await subscribe(w, 'access:u1')).toEqual({ statusCode: 200 });
    expect(w.subscribed).toEqual(['c1/farm-1', 'c1/farm-1']);
  });

  it("takes the groups from Cognito, not the token: a demoted Admin's renewal is refused and forgotten", async () => {
    const w = world();
    expect(await subscribe(w, 'access:u2', 'farm-9')).toEqual({ statusCode: 200 });
    w.groups.u2 = [];
    expect(await subscribe(w, 'access:u2', 'farm-9')).toEqual({ statusCode: 403, body: LIVE_FORBIDDEN });
    expect(w.removed).toEqual(['c1']);
    expect(w.sent.at(-1)).toEqual({ type: 'error', message: LIVE_FORBIDDEN });
  });

  it('refuses an unlinked member, a session signed out everywhere, a deleted account, an ID token and a bad token', async () => {
    const w = world();
    expect(await subscribe(w, 'access:u1', 'farm-2')).toEqual({ statusCode: 403, body: LIVE_FORBIDDEN });
    w.signedOut.add('access:u1');
    expect(await subscribe(w, 'access:u1')).toEqual({ statusCode: 401, body: MSG_SIGN_IN_AGAIN });
    w.groups.u3 = undefined;
    expect(await subscribe(w, 'access:u3')).toEqual({ statusCode: 401, body: MSG_SIGN_IN_AGAIN });
    expect(await subscribe(w, 'id:u2', 'farm-9')).toEqual({ statusCode: 401, body: MSG_SIGN_IN_AGAIN });
    expect(await subscribe(w, 'garbage')).toEqual({ statusCode: 401, body: MSG_SIGN_IN_AGAIN });
    expect(w.subscribed).toEqual([]);
  });
});
