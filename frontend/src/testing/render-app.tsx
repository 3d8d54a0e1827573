import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProvider } from '../app/provider';
import { routes } from '../app/routes';
import { createApiClient, type ApiClient } from '../lib/api-client';
import { fakeApi, type FakeHandler } from './fake-api';

/** An API client whose fetch answers 200 `{}` unless a test supplies its own. */
export const testApiClient = (fetchFn: typeof fetch = vi.fn<typeof fetch>(() => Promise.resolve(new Response('{}')))): ApiClient =>
  createApiClient({ apiUrl: 'https://api.example.test', getAccessToken: () => Promise.resolve(undefined), fetch: fetchFn });

/** The whole app (providers and the real route table) in a memory router at `path`. */
export const renderApp = (path: string, { apiClient = testApiClient() }: { apiClient?: ApiClient } = {}) => {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider apiClient={apiClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, apiClient };
};

/** One page with the app's providers in a memory router, its calls answered by `fakeApi(handlers)`: the fake and a user back. */
export const renderWithFakeApi = (page: ReactElement, handlers: Readonly<Record<string, FakeHandler>> = {}) => {
  const api = fakeApi(handlers);
  render(
    <AppProvider apiClient={testApiClient(api.fetch)}>
      <MemoryRouter>{page}</MemoryRouter>
    </AppProvider>,
  );
  return { api, user: userEvent.setup() };
};
