import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../shared/api/endpoints';
import { cognitoLocalKey, decodeJwt, signJwt, strangerKey } from '../support/jwt';
import { startTestStack } from '../support/local-stack';

/**
 * The platform's acceptance through the running local stack: every endpoint path behind the
 * JWT authorizer stand-in, the Lambdas' own verification on /api/user, and dispatch on type.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let farmerToken: string;

beforeAll(async () => {
  stack = await startTestStack();
  farmerToken = await stack.signIn('farmer@vatman.local');
});
afterAll(async () => stack?.stop());

describe('tokens', () => {
  it.each(ENDPOINTS.map((e) => e.path))('POST %s without a token is 401', async (path) => {
    const res = await stack.post(path, {});
    expect(res.status).toBe(401);
  });

  it.each(ENDPOINTS.map((e) => e.path))('POST %s with a valid token and an unknown type is 422 naming it', async (path) => {
    const res = await stack.post(path, { type: 'NO_SUCH_TYPE' }, farmerToken);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Unknown type: NO_SUCH_TYPE' });
  });

  const minted = () => {
    const claims = decodeJwt(farmerToken);
    const { pem, kid } = cognitoLocalKey();
    return { claims, pem, kid };
  };

  it('rejects a token signed by another key (401), on authorizer and Lambda-verified routes', async () => {
    const { claims } = minted();
    const forged = signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 }, strangerKey(), 'CognitoLocal');
    expect((await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, forged)).status).toBe(401);
    expect((await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, forged)).status).toBe(401);
  });

  it('rejects an expired token (401)', async () => {
    const { claims, pem, kid } = minted();
    const expired = signJwt({ ...claims, iat: 1_700_000_000, exp: 1_700_003_600 }, pem, kid);
    expect((await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, expired)).status).toBe(401);
    expect((await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, expired)).status).toBe(401);
  });

  it('rejects a token from another pool (issuer) or another app client (401)', async () => {
    const { claims, pem, kid } = minted();
    const otherPool = signJwt({ ...claims, iss: `${stack.facts.cognito.endpoint}/us-east-1_OtherPool` }, pem, kid);
    const otherClient = signJwt({ ...claims, client_id: 'another-client' }, pem, kid);
    for (const token of [otherPool, otherClient]) {
      expect((await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, token)).status).toBe(401);
      expect((await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token)).status).toBe(401);
    }
  });

  it('accepts the same claims re-signed with the pool key (the checks above are not vacuous)', async () => {
    const { claims, pem, kid } = minted();
    const resigned = signJwt(claims, pem, kid);
    expect((await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, resigned)).status).toBe(200);
  });
});

describe('/api/user', () => {
  it('signs in with the right password and refuses a wrong one with a 422 message', async () => {
    const bad = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'farmer@vatman.local', password: 'wrong-password' }) });
    expect(bad).toEqual({ status: 422, body: { message: 'Incorrect email or password.' } });
  });

  it('validates the user JSON with the spec messages', async () => {
    const noEmail = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'nope', password: 'x' }) });
    expect(noEmail).toEqual({ status: 422, body: { message: 'Please enter a correct email address' } });
    const noPassword = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'farmer@vatman.local', password: '' }) });
    expect(noPassword).toEqual({ status: 422, body: { message: 'Please enter password' } });
    const notJson = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: '{oops' });
    expect(notJson).toEqual({ status: 422, body: { message: 'user must be valid JSON' } });
  });

  it('reports login status with and without a token', async () => {
    expect((await stack.post('/api/user', { type: 'USER_CHECK_LOGIN_STATUS' }, farmerToken)).body).toBe('logged_in');
    expect((await stack.post('/api/user', { type: 'USER_CHECK_LOGIN_STATUS' })).body).toBe('logged_out');
  });

  it('returns only the caller, their farms and the role from the token', async () => {
    const res = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, farmerToken);
    expect(res.status).toBe(200);
    const body = res.body as { user: { email: string; role: string }; listFarm: { fonterra_id: string }[] };
    expect(body.user.email).toBe('farmer@vatman.local');
    expect(body.user.role).toBe('User');
    expect(body.listFarm.map((f) => f.fonterra_id).sort()).toEqual(['31245', 'FON50412', 'OCD40721']);
    const admin = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, await stack.signIn('admin@vatman.local'));
    expect((admin.body as { user: { role: string } }).user.role).toBe('Admin');
  });

  it('accepts a JSON body as well as a form, and a malformed JSON body is a 422', async () => {
    const ok = await fetch(`${stack.facts.api}/api/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${farmerToken}` },
      body: JSON.stringify({ type: 'USER_CHECK_LOGIN_STATUS' }),
    });
    expect(await ok.json()).toBe('logged_in');
    const bad = await fetch(`${stack.facts.api}/api/farmer/dashboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${farmerToken}` },
      body: '{"type":',
    });
    expect(bad.status).toBe(422);
  });
});

describe('farm membership and operator roles', () => {
  it('lets a farmer read a linked farm and refuses any other (403)', async () => {
    const own = await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-auto' }, farmerToken);
    expect(own.status).toBe(200);
    const body = own.body as { farm: { fonterra_id: string }; vats: { vat_number: number }[]; knode: unknown[] };
    expect(body.farm.fonterra_id).toBe('FON50412');
    expect(body.vats.map((v) => v.vat_number)).toEqual([1, 2, 3, 4]);
    expect(body.knode.length).toBeGreaterThan(0);
    const foreign = await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-wes' }, farmerToken);
    expect(foreign).toEqual({ status: 403, body: { message: 'Forbidden' } });
    const unknown = await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'no-such-farm' }, farmerToken);
    expect(unknown.status).toBe(403);
  });

  it('keeps operator actions to their Cognito groups', async () => {
    expect((await stack.post('/api/admin/user', { type: 'USER_LIST' }, farmerToken)).status).toBe(403);
    const installer = await stack.signIn('installer@vatman.local');
    expect((await stack.post('/api/admin/user', { type: 'USER_LIST' }, installer)).status).toBe(403);
    expect((await stack.post('/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }, installer)).status).toBe(200);
    const admin = await stack.signIn('admin@vatman.local');
    const users = await stack.post('/api/admin/user', { type: 'USER_LIST' }, admin);
    expect(users.status).toBe(200);
    expect((users.body as { email: string }[]).map((u) => u.email)).toContain('westlands@vatman.local');
    const westlands = await stack.signIn('westlands@vatman.local');
    const wes = await stack.post('/api/milkquality', { type: 'WESTLANDS_FARMS' }, westlands);
    expect(wes.body).toEqual([{ _id: 'farm-wes', fonterra_id: 'WES118' }]);
    expect((await stack.post('/api/milkquality', { type: 'WESTLANDS_FARMS' }, farmerToken)).status).toBe(403);
  });
});
