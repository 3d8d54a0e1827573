import { MSG_TOTP_REQUIRED } from '@shared/roles';
import { act, render, screen, waitFor } from '@testing-library/react';
import { fetchAuthSession } from 'aws-amplify/auth';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { farmerActivityContracts } from '@shared/api/actions/farmer-activity';
import { userContracts } from '@shared/api/actions/user';
import type { Role } from '../../../shared/roles';
import { createApiClient, type ApiClient, type ApiClientEvents } from '../lib/api-client';
import { ApiError } from '../lib/api-error';
import type { RouteNoAccess } from '../lib/no-access';
import { build } from '../testing/build';
import { stubWebConfig } from '../testing/fake-api';
import { renderApp } from '../testing/render-app';
import { ApiEvents, RELOAD_DELAY_MS, useUnauthorizedRouting } from './api-events';
import { AppProvider, createQueryClient } from './provider';
import { unauthorizedRedirect } from './unauthorized';

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(),
  getCurrentUser: vi.fn(() => Promise.reject(new Error('UserUnAuthenticatedException'))),
  signIn: vi.fn(),
  signOut: vi.fn(),
}));

describe('unauthorizedRedirect (farmer §6, operator §4)', () => {
  it.each<[Role, string]>([
    ['Admin', '/dts/users'],
    ['Milk Quality', '/dts/fonterra/milkquality'],
    ['Installer', '/dts/permission'],
    ['Westlands', '/dts/permission'],
    ['User', '/dts/permission'],
  ])('%s with a session goes to %s', (role, target) => {
    expect(unauthorizedRedirect({ role }, '/dts/dashboard')).toEqual({ kind: 'route', to: target });
  });

  it('an operator without an authenticator app goes to enrol one, whatever the role', () => {
    for (const role of ['Admin', 'Installer', 'Milk Quality', 'Westlands'] as const) {
      expect(unauthorizedRedirect({ role, needsTotp: true }, '/dts/users')).toEqual({ kind: 'route', to: '/dts/authenticator' });
    }
    expect(unauthorizedRedirect({ role: 'Admin', needsTotp: true }, '/dts/authenticator')).toBeNull();
  });

  it('no session goes to the login page carrying the current path', () => {
    expect(unauthorizedRedirect(null, '/dts/storage/a1/alert/b2?x=1')).toEqual({
      kind: 'route',
      to: '/dts/login/%2Fdts%2Fstorage%2Fa1%2Falert%2Fb2%3Fx%3D1',
    });
  });

  it('no session on the login page stays there', () => {
    expect(unauthorizedRedirect(null, '/dts/login/%2Fdts%2Fdashboard')).toBeNull();
  });

  it('stays when the target is the current page', () => {
    expect(unauthorizedRedirect({ role: 'Admin' }, '/dts/users')).toBeNull();
    expect(unauthorizedRedirect({ role: 'User' }, '/dts/permission?x=1')).toBeNull();
  });

  describe('herd-enabled users with a herd token', () => {
    const herdLink = 'https://herd.example/login?token=t1';

    it.each(['/dashboard', '/dts/user/profile', '/dts/user/profile/abc', '/dts/user/setting', '/dashboard?x=1'])('stay on %s', (path) => {
      expect(unauthorizedRedirect({ role: 'User' }, path, herdLink)).toBeNull();
    });

    it.each(['/dts/dashboard', '/dts/milking', '/dts/notification', '/dts/dashboard/data', '/dts/users'])(
      'go from %s to the herd site login',
      (path) => {
        expect(unauthorizedRedirect({ role: 'User' }, path, herdLink)).toEqual({ kind: 'site', href: herdLink });
      },
    );

    it('the rule is for herd users of every role but Admin, who still goes to /dts/users', () => {
      expect(unauthorizedRedirect({ role: 'Westlands' }, '/dts/milking', herdLink)).toEqual({ kind: 'site', href: herdLink });
      expect(unauthorizedRedirect({ role: 'Milk Quality' }, '/dashboard', herdLink)).toBeNull();
      expect(unauthorizedRedirect({ role: 'Admin' }, '/dashboard', herdLink)).toEqual({ kind: 'route', to: '/dts/users' });
    });

    it('needs a session: without one the herd link does not matter', () => {
      expect(unauthorizedRedirect(null, '/dashboard', herdLink)).toEqual({ kind: 'route', to: '/dts/login/%2Fdashboard' });
    });
  });
});

/** A client whose fetch always answers 401, as API Gateway's JWT authorizer does. */
const rejectingClient = (): ApiClient =>
  createApiClient({
    apiUrl: 'https://api.example.test',
    getAccessToken: () => Promise.resolve('stale'),
    fetch: () => Promise.resolve(new Response(JSON.stringify({ message: 'Unauthorized' }), { status: 401 })),
  });

const sessionWithGroups = (groups: string[] | undefined) =>
  vi.mocked(fetchAuthSession).mockResolvedValue(
    (groups === undefined
      ? { tokens: undefined }
      : { tokens: { accessToken: { payload: { 'cognito:groups': groups, 'vatman:totp': '1700000000', auth_time: 1700000000 }, toString: () => 'token' } } }) as never,
  );

describe('a 401 from the API client routes the app', () => {
  beforeEach(() => vi.mocked(fetchAuthSession).mockReset());

  it.each([
    [['Admin'], '/dts/users'],
    [['MilkQuality'], '/dts/fonterra/milkquality'],
    [['Installer'], '/dts/permission'],
    [['Westlands'], '/dts/permission'],
    [[], '/dts/permission'],
  ])('groups %j go to %s', async (groups, target) => {
    sessionWithGroups(groups);
    const { router, apiClient } = renderApp('/', { apiClient: rejectingClient() });
    await screen.findByText('Home');
    await act(() => apiClient.call(userContracts.USER_ONE_GET_BY_TOKEN, {}).catch(() => undefined));
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('no session goes to /dts/login/{reurl} and shows the sign-in page', async () => {
    sessionWithGroups(undefined);
    const { router, apiClient } = renderApp('/dts/no-such-screen?farm=F1', { apiClient: rejectingClient() });
    await screen.findByText('Promotion 404');
    await act(() => apiClient.call(farmerActivityContracts.FARMER_MILKING_LIST, { farm: 'farm-1' }).catch(() => undefined));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login/%2Fdts%2Fno-such-screen%3Ffarm%3DF1'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('ApiEvents: failures the caller did not handle', () => {
  /** A client stub that lets the test fire its events directly. */
  const stubClient = () => {
    const listeners: { [E in keyof ApiClientEvents]?: ApiClientEvents[E] } = {};
    const client: ApiClient = {
      call: () => Promise.reject(new Error('not used')),
      send: () => Promise.reject(new Error('not used')),
      on: (event, listener) => {
        (listeners as Record<string, unknown>)[event] = listener;
        return () => undefined;
      },
    };
    return { client, fire: (error: ApiError) => listeners.error?.(error) };
  };

  const mount = (reload: () => void, routeUnauthorized: () => Promise<'stay' | 'left'> = () => Promise.resolve('stay')) => {
    const { client, fire } = stubClient();
    const router = createMemoryRouter([{ path: '*', element: <ApiEvents reload={reload} routeUnauthorized={routeUnauthorized} /> }]);
    render(
      <AppProvider apiClient={client}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    return fire;
  };

  it("shows the server's message in the snackbar", () => {
    const fire = mount(vi.fn());
    act(() => fire(new ApiError({ kind: 'http', status: 422, serverMessage: 'Farm not found' })));
    expect(screen.getByRole('alert')).toHaveTextContent('Farm not found');
  });

  it('routes a 403 that asks for an authenticator app (the enrolment screen) instead of showing it', () => {
    const route = vi.fn(() => Promise.resolve('left' as const));
    const fire = mount(vi.fn(), route);
    act(() => fire(new ApiError({ kind: 'http', status: 403, serverMessage: MSG_TOTP_REQUIRED })));
    expect(route).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the default text when the server sent none', () => {
    const fire = mount(vi.fn());
    act(() => fire(new ApiError({ kind: 'http', status: 500 })));
    expect(screen.getByRole('alert')).toHaveTextContent('An error occurred');
  });

  it("reloads the page after 'invalid-input-response', once the message has been seen", () => {
    vi.useFakeTimers();
    try {
      const reload = vi.fn();
      const fire = mount(reload);
      act(() => fire(new ApiError({ kind: 'http', status: 422, serverMessage: 'invalid-input-response' })));
      expect(screen.getByRole('alert')).toHaveTextContent('An error occurred, please try again!');
      expect(reload).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(RELOAD_DELAY_MS));
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not reload after 'timeout-or-duplicate'", () => {
    vi.useFakeTimers();
    try {
      const reload = vi.fn();
      const fire = mount(reload);
      act(() => fire(new ApiError({ kind: 'http', status: 422, serverMessage: 'timeout-or-duplicate' })));
      act(() => vi.advanceTimersByTime(10_000));
      expect(reload).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('useUnauthorizedRouting: the herd rule on a 401', () => {
  const herdUser = build.user({ is_herd_enabled: 1, token_id: 'tok 1' });

  const mountRouting = async (path: string, openSite: (href: string) => void) => {
    stubWebConfig({ herdSiteUrl: 'https://herd.example/login' });
    const queryClient = createQueryClient();
    // What the farmer shell cached when it loaded the user.
    queryClient.setQueryData(['user', 'current', 'farm-1'], { user: herdUser, listFarm: [], organization: null });
    let route: RouteNoAccess | undefined;
    function Probe() {
      route = useUnauthorizedRouting({ loadSession: () => Promise.resolve({ role: 'User' }), openSite });
      return null;
    }
    const router = createMemoryRouter([{ path: '*', element: <Probe /> }], { initialEntries: [path] });
    render(
      <AppProvider apiClient={stubApiClient()} queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    // The herd site URL comes from the runtime config, read on the 401 (cached after).
    await waitFor(() => expect(route).toBeDefined());
    return { router, route: () => (route as RouteNoAccess)() };
  };

  const stubApiClient = (): ApiClient => ({ call: () => Promise.reject(new Error('not used')), send: () => Promise.reject(new Error('not used')), on: () => () => undefined });

  afterEach(() => vi.unstubAllGlobals());

  it('sends a herd user away from a farm page to the herd site login with their token', async () => {
    const openSite = vi.fn();
    const { route } = await mountRouting('/dts/milking', openSite);
    await expect(act(route)).resolves.toBe('left');
    expect(openSite).toHaveBeenCalledWith('https://herd.example/login?token=tok%201');
  });

  it('keeps a herd user on the module dashboard', async () => {
    const openSite = vi.fn();
    const { route, router } = await mountRouting('/dashboard', openSite);
    await expect(act(route)).resolves.toBe('stay');
    expect(openSite).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
