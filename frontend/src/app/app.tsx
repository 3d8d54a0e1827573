import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { ApiClient } from '../lib/api-client';
import { AppProvider } from './provider';
import { routes } from './routes';

type Router = ReturnType<typeof createBrowserRouter>;

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
