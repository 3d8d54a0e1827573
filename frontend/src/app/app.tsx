import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { ApiClient } from '../lib/api-client';
import { AppProvider } from './provider';
import { routes } from './routes';

export function App({ apiClient }: { readonly apiClient: ApiClient }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider apiClient={apiClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
