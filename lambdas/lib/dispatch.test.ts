import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { callerFromClaims, parseGroupsClaim } from './caller';
import { access, contract } from '../../shared/api/contract';
import type { Farm } from '../../shared/entities/farm';
import { MSG_TOTP_REQUIRED, TOTP_CLAIM } from '../../shared/roles';
import { dispatch, serve } from './dispatch';
import type { Ports } from '../ports/action-ports';
import { ForbiddenError, ThrottledError } from './errors';
import { http } from './http';
import { createLogger } from './logger';
import type { TokenVerifier } from '../ports/cognito';

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

const PATH = '/api/watchman';
const c = <T extends string, S extends z.ZodType>(type: T, input: S, rule: Parameters<typeof contract>[0]['access'] = access.self) =>
  contract({ path: PATH, type, input, answer: z.unknown(), access: rule });
const empty = <T extends string>(type: T) => z.object({ type: z.literal(type) });

const actions = [
  serve(c('ECHO', z.object({ type: z.literal('ECHO'), n: z.coerce.number({ error: 'n must be a number' }) })), [], async ({ n }, { caller }) => ({ n, user: caller.userId, role: caller.role })),
  serve(c('OPEN', empty('OPEN'), access.public), [], async (_i, { caller }) => caller?.userId ?? 'anonymous'),
  serve(c('DENY', empty('DENY')), [], async () => {
    throw new ForbiddenError();
  }),
  serve(c('SLOW_DOWN', empty('SLOW_DOWN')), [], async () => {
    throw new ThrottledError();
  }),
  serve(c('CRASH', empty('CRASH')), [], async () => {
    throw new Error('table missing: secret detail');
  }),
  serve(c('INSTALL', empty('INSTALL'), access.operator('Installer')), [], async () => 'installed'),
  serve(c('ADMIN', empty('ADMIN'), access.admin()), [], async () => 'admin'),
  serve(contract({ path: PATH, type: 'FARM', input: z.object({ type: z.literal('FARM'), farm: z.string() }), answer: z.string(), access: access.farmMember() }), [], async (_i, { farm }) => farm.name ?? ''),
  serve(
    contract({ path: PATH, type: 'MILKING', input: z.object({ type: z.literal('MILKING'), activity_id: z.string() }), answer: z.string(), access: access.activityMember('milking') }),
    [],
    async (_i, { device, activity }) => `${device._id} ${activity.kind}`,
  ),
  serve(contract({ path: PATH, type: 'LIES', input: empty('LIES'), answer: z.literal('truth'), access: access.self }), [], async () => 'lie' as 'truth'),
];

/** Two farms: f1 linked to u2; device d1 on f1 with a milking; device d2 moved to f1 from f0 (its milking was recorded on f0). */
const farm = (id: string) => ({ _id: id, name: `Farm ${id}` }) as Farm;
const ports = {
  farms: {
    isLinked: async (user: string, farmId: string) => user === 'u2' && farmId === 'f1',
    getFarm: async (id: string) => (['f0', 'f1'].includes(id) ? farm(id) : undefined),
    getDevice: async (id: string) => (['d1', 'd2'].includes(id) ? { _id: id, farm_id: 'f1' } : undefined),
  },
  readings: {
    getActivity: async (deviceId: string, kind: string, start: string) => ({ device_id: deviceId, farm_id: deviceId === 'd2' ? 'f0' : 'f1', kind, start: { published_at: start }, end: null }),
  },
} as unknown as Ports;

const jwtEndpoint = http(dispatch({ auth: 'jwt', actions, ports, log, checkAnswers: true }), log);
const publicEndpoint = http(dispatch({ auth: 'public', actions, ports: { ...ports, verifier } as Ports, log }), log);
const claims = { sub: 'u1', 'cognito:groups': '[Admin Installer]', [TOTP_CLAIM]: '1700000000', auth_time: '1700000000' };

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

describe('access rules', () => {
  /** Claims as HTTP API passes them; operators have their authenticator app (the TOTP claim) unless `totp` is false. */
  const as = (groups: string, sub = 'u1', totp = true) => ({ sub, 'cognito:groups': groups, auth_time: '1700000100', ...(totp ? { [TOTP_CLAIM]: '1700000000' } : {}) });
  const status = async (body: string, who: Record<string, string>) => (await call(jwtEndpoint, event(body, {}, who))).status;

  it('lets an operator rule through for its groups and Admin only', async () => {
    expect(await status('type=INSTALL', as('[Installer]'))).toBe(200);
    expect(await status('type=INSTALL', as('[Admin]'))).toBe(200);
    expect(await status('type=INSTALL', as('[MilkQuality Westlands]'))).toBe(403);
    expect(await status('type=INSTALL', as(''))).toBe(403);
    expect(await status('type=ADMIN', as('[Installer]'))).toBe(403);
    expect(await status('type=ADMIN', as('[Admin]'))).toBe(200);
  });

  it('refuses an operator without an authenticator app (the TOTP claim) every operator action, with the message the app routes on; an Admin without one has no Admin reach', async () => {
    const refused = { status: 403, body: { message: MSG_TOTP_REQUIRED } };
    expect(await call(jwtEndpoint, event('type=INSTALL', {}, as('[Installer]', 'u1', false)))).toEqual(refused);
    expect(await call(jwtEndpoint, event('type=ADMIN', {}, as('[Admin]', 'u1', false)))).toEqual(refused);
    expect(await call(jwtEndpoint, event('type=INSTALL', {}, { sub: 'u1', 'cognito:groups': '[Installer]' }))).toEqual(refused);
    expect(await status('type=FARM&farm=f0', as('[Admin]', 'u1', false))).toBe(403);
    // A farmer needs none; one who opted in is a farmer still.
    expect((await call(jwtEndpoint, event('type=FARM&farm=f1', {}, as('', 'u2', false)))).body).toBe('Farm f1');
    expect(await status('type=INSTALL', as('', 'u2', true))).toBe(403);
  });

  it('refuses a session that signed in before the authenticator was confirmed, though its refreshed token carries the claim', async () => {
    const refused = { status: 403, body: { message: MSG_TOTP_REQUIRED } };
    // A password-only session refreshed after someone enrolled an app: auth_time (kept by refresh) precedes the confirmation.
    const stale = { sub: 'u1', 'cognito:groups': '[Installer]', auth_time: '1699999999', [TOTP_CLAIM]: '1700000000' };
    expect(await call(jwtEndpoint, event('type=INSTALL', {}, stale))).toEqual(refused);
    // The claim as the old trigger wrote it proves nothing.
    expect(await call(jwtEndpoint, event('type=INSTALL', {}, { sub: 'u1', 'cognito:groups': '[Installer]', auth_time: '1700000000', [TOTP_CLAIM]: 'true' }))).toEqual(refused);
    expect(await status('type=INSTALL', { ...stale, auth_time: '1700000000' })).not.toBe(403);
  });

  it('answers 403 before reading the fields when the groups do not qualify', async () => {
    expect(await status('type=ADMIN&junk=1', as('[Installer]'))).toBe(403);
  });

  it('lets a farm rule through for a linked farm and Admin, 403 for a foreign or unknown farm', async () => {
    expect((await call(jwtEndpoint, event('type=FARM&farm=f1', {}, as('', 'u2')))).body).toBe('Farm f1');
    expect(await status('type=FARM&farm=f0', as('', 'u2'))).toBe(403);
    expect(await status('type=FARM&farm=nope', as('[Admin]'))).toBe(403);
    expect(await status('type=FARM&farm=f0', as('[Admin]'))).toBe(200);
    expect(await status('type=FARM&farm=f1', as('[Installer]'))).toBe(403);
  });

  it('resolves an activity rule to its device and activity; another kind, a bad id or an activity of the device\'s old farm are 403', async () => {
    const id = (device: string, kind = 'milking') => encodeURIComponent(`${device}~${kind}~2026-11-01T00:00:00.000Z`);
    expect((await call(jwtEndpoint, event(`type=MILKING&activity_id=${id('d1')}`, {}, as('', 'u2')))).body).toBe('d1 milking');
    expect(await status(`type=MILKING&activity_id=${id('d1', 'storage')}`, as('', 'u2'))).toBe(403);
    expect(await status(`type=MILKING&activity_id=${id('d9')}`, as('[Admin]'))).toBe(403);
    expect(await status('type=MILKING&activity_id=nonsense', as('[Admin]'))).toBe(403);
    expect(await status(`type=MILKING&activity_id=${id('d2')}`, as('', 'u2'))).toBe(403);
    expect(await status(`type=MILKING&activity_id=${id('d1')}`, as('', 'u3'))).toBe(403);
  });

  it('checks each answer against its contract where asked to (tests and the local stack)', async () => {
    expect(await status('type=LIES', as(''))).toBe(500);
    expect(lines.some((l) => l.includes('LIES answered outside its contract'))).toBe(true);
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
