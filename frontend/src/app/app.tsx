import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import type { ApiClient } from '../lib/api-client';
import { AppProvider } from './provider';
import { DEVICE_LIST_ROUTE, FARMER_SHELL_ROUTE, MILK_DASHBOARD_ROUTE, routes } from './routes';

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * Where the page opened: a farmer-shell screen, the milk dashboard, or neither. Read from the
 * location before the router is made, so start-up can ask for its early calls' code before the
 * screen's (a browser fetches what was asked for first first).
 */
export const firstScreen = (location: Pick<Location, 'pathname'> = window.location): { readonly shell: boolean; readonly dashboard: boolean; readonly devices: boolean } => {
  const ids = new Set((matchRoutes(routes, location.pathname) ?? []).map((m) => m.route.id));
  return { shell: ids.has(FARMER_SHELL_ROUTE), dashboard: ids.has(MILK_DASHBOARD_ROUTE), devices: ids.has(DEVICE_LIST_ROUTE) };
};

/** The router made now: it starts loading the current route's code (its lazy chunks) at once. */
export const createAppRouter = (): Router => createBrowserRouter(routes);

export function App({ apiClient, router, queryClient }: { readonly apiClient: ApiClient; readonly router?: Router; readonly queryClient?: QueryClient }) {
  const [appRouter] = useState(() => router ?? createAppRouter());
  return (
    <AppProvider apiClient={apiClient} queryClient={queryClient}>
      <RouterProvider router={appRouter} />
    </AppProvider>
  );
}
