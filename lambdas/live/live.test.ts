import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger';
import { ORIGIN_HEADER } from '../lib/origin-check';
import { makeLiveHandler, type LiveDeps } from './live';

/**
 * The live socket's handshake in AWS (cdk/lib/constructs/live.ts): only through the web
 * distribution, which adds the origin secret's header, then the Cognito token.
 */
describe('the live socket handshake ($connect)', () => {
  const SECRET = 'edge-secret-value-0123456789';
  const connected: string[] = [];
  const deps = (originSecret?: string): LiveDeps => ({
    verifier: { verify: async (token: string) => (token === 'good' ? { sub: 'u1', 'cognito:groups': [] } : Promise.reject(new Error('bad token'))) } as unknown as LiveDeps['verifier'],
    connections: { putConnection: async (c: { connectionId: string }) => void connected.push(c.connectionId) } as unknown as LiveDeps['connections'],
    farms: {} as LiveDeps['farms'],
    sender: {} as LiveDeps['sender'],
    now: () => new Date('2026-11-26T04:00:00.000Z'),
    log: createLogger({}, 'error'),
    ...(originSecret ? { originSecret } : {}),
  });
  const connect = (d: LiveDeps, headers: Record<string, string>, token = 'good') =>
    makeLiveHandler(d)({ requestContext: { routeKey: '$connect', connectionId: `c-${connected.length}` }, queryStringParameters: { token }, headers });

  it("refuses a handshake without the edge's header, or with another value, before the token is looked at (403)", async () => {
    expect(await connect(deps(SECRET), {})).toEqual({ statusCode: 403, body: 'Forbidden' });
    expect(await connect(deps(SECRET), { [ORIGIN_HEADER]: 'guess' })).toEqual({ statusCode: 403, body: 'Forbidden' });
    expect(connected).toEqual([]);
  });

  it('accepts one through the edge (the header in any case, as the WebSocket API passes names as they came), then checks the token', async () => {
    expect(await connect(deps(SECRET), { 'X-Vatman-Origin-Verify': SECRET }, 'bad')).toEqual({ statusCode: 401, body: 'Unauthorized' });
    expect(await connect(deps(SECRET), { 'X-Vatman-Origin-Verify': SECRET })).toEqual({ statusCode: 200 });
    expect(connected).toHaveLength(1);
  });

  it('checks no header without a secret (the local stack: no CloudFront)', async () => {
    expect(await connect(deps(), {})).toEqual({ statusCode: 200 });
  });
});
