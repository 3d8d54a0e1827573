import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import workerSource from '../../build/sw-template.js?raw';
import { configureAuth, getAccessToken, getSession, SAVED_ANSWERS_CACHE, signOutUser } from './auth-session';
import { GOOD_WEB_CONFIG } from '../testing/build';

vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(),
  getCurrentUser: vi.fn(),
  signOut: vi.fn(),
}));

const config = GOOD_WEB_CONFIG;

const tokensWith = (payload: Record<string, unknown>) => ({
  tokens: { accessToken: { payload, toString: () => 'header.payload.signature' } },
});

beforeEach(() => {
  vi.mocked(Amplify.configure).mockReset();
  vi.mocked(fetchAuthSession).mockReset();
});

describe('configureAuth', () => {
  it('points Amplify at the pool, without an endpoint in AWS', async () => {
    await configureAuth(config);
    expect(Amplify.configure).toHaveBeenCalledWith({
      Auth: { Cognito: { userPoolId: config.userPoolId, userPoolClientId: config.userPoolClientId } },
    });
  });

  it('adds userPoolEndpoint when the config names one (cognito-local)', async () => {
    await configureAuth({ ...config, cognitoEndpoint: 'http://127.0.0.1:9229' });
    expect(Amplify.configure).toHaveBeenCalledWith({
      Auth: { Cognito: { userPoolId: config.userPoolId, userPoolClientId: config.userPoolClientId, userPoolEndpoint: 'http://127.0.0.1:9229' } },
    });
  });
});

describe('getSession', () => {
  it('reads the bearer and the role from cognito:groups', async () => {
    vi.mocked(fetchAuthSession).mockResolvedValue(tokensWith({ 'cognito:groups': ['Installer', 'Admin'] }) as never);
    await expect(getSession()).resolves.toEqual({
      accessToken: 'header.payload.signature',
      groups: ['Installer', 'Admin'],
      role: 'Admin',
      needsTotp: true,
    });
  });

  it('says an operator needs an authenticator app until the token carries the TOTP claim; a farmer never does', async () => {
    vi.mocked(fetchAuthSession).mockResolvedValue(tokensWith({ 'cognito:groups': ['Installer'], 'vatman:totp': '1700000000', auth_time: 1700000000 }) as never);
    expect((await getSession())?.needsTotp).toBe(false);
    vi.mocked(fetchAuthSession).mockResolvedValue(tokensWith({ 'vatman:totp': 'false' }) as never);
    expect((await getSession())?.needsTotp).toBe(false);
  });

  it('is a plain farmer without groups', async () => {
    vi.mocked(fetchAuthSession).mockResolvedValue(tokensWith({}) as never);
    expect((await getSession())?.role).toBe('User');
  });

  it('is null when signed out or the refresh fails', async () => {
    vi.mocked(fetchAuthSession).mockResolvedValueOnce({ tokens: undefined } as never);
    await expect(getSession()).resolves.toBeNull();
    vi.mocked(fetchAuthSession).mockRejectedValueOnce(new Error('NotAuthorizedException'));
    await expect(getAccessToken()).resolves.toBeUndefined();
  });
});

describe('signOutUser', () => {
  it("signs out and drops the service worker's saved answers (a shared phone opens nobody's farms offline)", async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => deleted.push(name) > 0) });
    try {
      await signOutUser();
      expect(signOut).toHaveBeenCalled();
      expect(deleted).toEqual([SAVED_ANSWERS_CACHE]);
    } finally {
      vi.unstubAllGlobals();
    }
    // The worker saves under the same name.
    expect(workerSource).toContain(`const ANSWERS = '${SAVED_ANSWERS_CACHE}';`);
  });
});
