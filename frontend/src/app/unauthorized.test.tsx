import { act, render, screen, waitFor } from '@testing-library/react';
import { fetchAuthSession } from 'aws-amplify/auth';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../shared/roles';
import { createApiClient, type ApiClient, type ApiClientEvents } from '../lib/api-client';
import { ApiError } from '../lib/api-error';
import { renderApp } from '../testing/render-app';
import { ApiEvents, RELOAD_DELAY_MS } from './api-events';
import { AppProvider } from './provider';
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
    expect(unauthorizedRedirect({ role }, '/dts/dashboard')).toBe(target);
  });

  it('no session goes to the login page carrying the current path', () => {
    expect(unauthorizedRedirect(null, '/dts/storage/a1/alert/b2?x=1')).toBe('/dts/login/%2Fdts%2Fstorage%2Fa1%2Falert%2Fb2%3Fx%3D1');
  });

  it('no session on the login page stays there', () => {
    expect(unauthorizedRedirect(null, '/dts/login/%2Fdts%2Fdashboard')).toBeNull();
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
      : { tokens: { accessToken: { payload: { 'cognito:groups': groups }, toString: () => 'token' } } }) as never,
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
    await act(() => apiClient.post('/api/user', 'USER_ONE_GET_BY_TOKEN').catch(() => undefined));
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('no session goes to /dts/login/{reurl} and shows the sign-in page', async () => {
    sessionWithGroups(undefined);
    const { router, apiClient } = renderApp('/dts/no-such-screen?farm=F1', { apiClient: rejectingClient() });
    await screen.findByText('Promotion 404');
    await act(() => apiClient.post('/api/farmer/activity', 'FARMER_MILKING_LIST').catch(() => undefined));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login/%2Fdts%2Fno-such-screen%3Ffarm%3DF1'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('ApiEvents: failures the caller did not handle', () => {
  /** A client stub that lets the test fire its events directly. */
  const stubClient = () => {
    const listeners: { [E in keyof ApiClientEvents]?: ApiClientEvents[E] } = {};
    const client: ApiClient = {
      post: () => Promise.reject(new Error('not used')),
      on: (event, listener) => {
        (listeners as Record<string, unknown>)[event] = listener;
        return () => undefined;
      },
    };
    return { client, fire: (error: ApiError) => listeners.error?.(error) };
  };

  const mount = (reload: () => void) => {
    const { client, fire } = stubClient();
    const router = createMemoryRouter([{ path: '*', element: <ApiEvents reload={reload} /> }]);
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
