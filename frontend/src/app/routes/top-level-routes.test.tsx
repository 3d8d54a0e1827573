import { screen, waitFor } from '@testing-library/react';
import { fetchAuthSession, getCurrentUser } from 'aws-amplify/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@shared/roles';
import { renderApp } from '../../testing/render-app';
import { landingPath, roleLandingPath } from '../../lib/role-landing';

vi.mock('aws-amplify/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('aws-amplify/auth')>()),
  fetchAuthSession: vi.fn(),
  getCurrentUser: vi.fn(),
  signOut: vi.fn(() => Promise.resolve()),
}));

/** Amplify holding a session whose access token carries `groups`, or no session at all. */
const sessionWithGroups = (groups: string[] | undefined) =>
  vi.mocked(fetchAuthSession).mockResolvedValue(
    (groups === undefined
      ? { tokens: undefined }
      : { tokens: { accessToken: { payload: { 'cognito:groups': groups, 'vatman:totp': '1700000000', auth_time: 1700000000 }, toString: () => 'token' } } }) as never,
  );

beforeEach(() => {
  vi.mocked(fetchAuthSession).mockReset();
  vi.mocked(getCurrentUser).mockReset().mockRejectedValue(new Error('UserUnAuthenticatedException'));
});

describe('roleLandingPath and landingPath (operator §2 /redirect)', () => {
  it.each<[Role, string]>([
    ['Admin', '/dts/fleet'],
    ['Milk Quality', '/dts/fonterra/milkquality'],
    ['Westlands', '/dts/westlands/data'],
    ['Installer', '/dts/fleet'],
    ['User', '/dashboard'],
  ])('%s lands on %s', (role, target) => {
    expect(roleLandingPath(role)).toBe(target);
    expect(landingPath({ role })).toBe(target);
  });

  it('no session lands on the login page, without a reurl', () => {
    expect(landingPath(null)).toBe('/dts/login');
  });
});

describe('/redirect', () => {
  it.each([
    [['Admin'], '/dts/fleet'],
    [['Admin', 'Installer'], '/dts/fleet'],
    [['MilkQuality'], '/dts/fonterra/milkquality'],
    [['Westlands'], '/dts/westlands/data'],
    [['Installer'], '/dts/fleet'],
    [[], '/dashboard'],
    [undefined, '/dts/login'],
  ])('groups %j go to %s', async (groups, target) => {
    sessionWithGroups(groups);
    const { router } = renderApp('/redirect');
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('/test', () => {
  it('shows the signed-in email from Amplify', async () => {
    vi.mocked(getCurrentUser).mockResolvedValue({ username: 'c0ffee-uuid', userId: 'c0ffee-uuid', signInDetails: { loginId: 'mere@example.nz' } });
    renderApp('/test');
    expect(await screen.findByRole('heading', { name: 'Test' })).toBeInTheDocument();
    expect(await screen.findByText('Signed in as mere@example.nz')).toBeInTheDocument();
  });

  it('falls back to the Cognito user name when Amplify has no sign-in details', async () => {
    vi.mocked(getCurrentUser).mockResolvedValue({ username: 'hemi@example.nz', userId: 'u-2' });
    renderApp('/test');
    expect(await screen.findByText('Signed in as hemi@example.nz')).toBeInTheDocument();
  });

  it('says so when nobody is signed in', async () => {
    renderApp('/test');
    expect(await screen.findByRole('heading', { name: 'Test' })).toBeInTheDocument();
    expect(await screen.findByText('Not signed in')).toBeInTheDocument();
    expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument();
  });
});

describe('/admin paths', () => {
  it.each(['/admin', '/admin/home', '/admin/users'])('%s goes to the admin users screen', async (path) => {
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/users'));
  });
});
