import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerFromClaims, parseGroupsClaim } from './caller';
import { action, dispatch, publicAction } from './dispatch';
import { ForbiddenError, ThrottledError } from './errors';
import { http } from './http';
import { createLogger } from './logger';
import type { TokenVerifier } from './token-verifier';

const lines: string[] = [];
const log = createLogger({}, 'debug', (l) => lines.push(l));
const verifier: TokenVerifier = {
  verify: async (token) => {
    if (token !== 'good') throw new Error('bad token');
    return { sub: 'u1', 'cognito:groups': ['Installer'], iss: 'x', exp: 0, iat: 0 } as never;
  },
};

const event = (body: string | undefined, headers: Record<string, string> = {}, claims?: Record<string, string>): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /x',
    rawPath: '/x',
    rawQueryString: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    requestContext: { ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}) },
    body,
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const call = async (h: ReturnType<typeof http>, e: APIGatewayProxyEventV2) => {
  const res = (await h(e, {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode, body: JSON.parse(res.body ?? 'null') as unknown };
};

const actions = {
  ECHO: action(z.object({ type: z.literal('ECHO'), n: z.coerce.number({ error: 'n must be a number' }) }), async ({ n }, { caller }) => ({ n, user: caller.userId, role: caller.role })),
  OPEN: publicAction(z.object({ type: z.literal('OPEN') }), async (_i, { caller }) => caller?.userId ?? 'anonymous'),
  DENY: action(z.object({ type: z.literal('DENY') }), async () => {
    throw new ForbiddenError();
  }),
  SLOW_DOWN: action(z.object({ type: z.literal('SLOW_DOWN') }), async () => {
    throw new ThrottledError();
  }),
  CRASH: action(z.object({ type: z.literal('CRASH') }), async () => {
    throw new Error('table missing: secret detail');
  }),
};

const jwtEndpoint = http(dispatch({ auth: 'jwt', actions, deps: {}, log }), log);
const publicEndpoint = http(dispatch({ auth: 'public', actions, deps: {}, log, verifier }), log);
const claims = { sub: 'u1', 'cognito:groups': '[Admin Installer]' };

describe('dispatch on type', () => {
  it('runs the action with the caller from the authorizer claims', async () => {
    expect(await call(jwtEndpoint, event('type=ECHO&n=4', {}, claims))).toEqual({ status: 200, body: { n: 4, user: 'u1', role: 'Admin' } });
  });

  it('is 401 without claims on a jwt route, whatever the body', async () => {
    expect((await call(jwtEndpoint, event('type=ECHO&n=4'))).status).toBe(401);
    expect((await call(jwtEndpoint, event(undefined))).status).toBe(401);
  });

  it('names an unknown type in a 422, and never treats prototype keys as types', async () => {
    expect(await call(jwtEndpoint, event('type=NOPE', {}, claims))).toEqual({ status: 422, body: { message: 'Unknown type: NOPE' } });
    expect(await call(jwtEndpoint, event('type=constructor', {}, claims))).toEqual({ status: 422, body: { message: 'Unknown type: constructor' } });
    expect(await call(jwtEndpoint, event('', {}, claims))).toEqual({ status: 422, body: { message: 'Unknown type: (none)' } });
  });

  it('answers schema failures with the schema message as a 422', async () => {
    expect(await call(jwtEndpoint, event('type=ECHO&n=abc', {}, claims))).toEqual({ status: 422, body: { message: 'n must be a number' } });
  });

  it('accepts JSON bodies and turns a malformed one into a 422', async () => {
    const json = { 'content-type': 'application/json' };
    expect((await call(jwtEndpoint, event('{"type":"ECHO","n":2}', json, claims))).body).toMatchObject({ n: 2 });
    expect((await call(jwtEndpoint, event('{"type":', json, claims))).status).toBe(422);
  });

  it('maps domain errors to their status, and hides unexpected ones behind a generic 500', async () => {
    expect(await call(jwtEndpoint, event('type=DENY', {}, claims))).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect((await call(jwtEndpoint, event('type=SLOW_DOWN', {}, claims))).status).toBe(429);
    const crash = await call(jwtEndpoint, event('type=CRASH', {}, claims));
    expect(crash).toEqual({ status: 500, body: { message: 'Server Error!' } });
    expect(lines.some((l) => l.includes('secret detail'))).toBe(true);
  });

  it('on a public route lets public types through without a token and verifies the bearer itself', async () => {
    expect((await call(publicEndpoint, event('type=OPEN'))).body).toBe('anonymous');
    expect((await call(publicEndpoint, event('type=OPEN', { authorization: 'Bearer good' }))).body).toBe('u1');
    expect((await call(publicEndpoint, event('type=OPEN', { authorization: 'Bearer forged' }))).body).toBe('anonymous');
    expect((await call(publicEndpoint, event('type=ECHO&n=1'))).status).toBe(401);
    expect((await call(publicEndpoint, event('type=ECHO&n=1', { authorization: 'Bearer forged' }))).status).toBe(401);
    expect((await call(publicEndpoint, event('type=ECHO&n=1', { authorization: 'Bearer good' }))).body).toMatchObject({ role: 'Installer' });
    expect((await call(publicEndpoint, event(undefined))).status).toBe(401);
  });
});

describe('claims', () => {
  it('reads cognito:groups as HTTP API flattens it and as a verified payload has it', () => {
    expect(parseGroupsClaim('[Admin Installer]')).toEqual(['Admin', 'Installer']);
    expect(parseGroupsClaim(['MilkQuality'])).toEqual(['MilkQuality']);
    expect(parseGroupsClaim(undefined)).toEqual([]);
    expect(callerFromClaims({ sub: 's', 'cognito:groups': '[MilkQuality]' }).role).toBe('Milk Quality');
    expect(callerFromClaims({ sub: 's' }).role).toBe('User');
  });
});
