import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { ApiClient } from '../lib/api-client';
import { AppProvider } from './provider';
import { FARMER_SHELL_ROUTE, MILK_DASHBOARD_ROUTE, routes } from './routes';

type Router = ReturnType<typeof createBrowserRouter>;

/** Where the router's first location is: a farmer-shell screen, the milk dashboard, or neither. */
export const firstScreen = (router: Router): { readonly shell: boolean; readonly dashboard: boolean } => {
  const ids = new Set(router.state.matches.map((m) => m.route.id));
  return { shell: ids.has(FARMER_SHELL_ROUTE), dashboard: ids.has(MILK_DASHBOARD_ROUTE) };
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
