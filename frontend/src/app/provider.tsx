import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialogProvider } from '../components/confirm-dialog';
import { SnackbarProvider } from '../components/snackbar';
import type { ApiClient } from '../lib/api-client';
import { ApiClientProvider } from '../lib/api-client-provider';

export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      // The API client has already announced a failure (snackbar): a retry would announce it again.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });

/** Everything a screen may use, outside the router: API client, query cache, snackbar, confirm dialog. */
export function AppProvider({
  apiClient,
  queryClient,
  children,
}: {
  readonly apiClient: ApiClient;
  readonly queryClient?: QueryClient;
  readonly children: ReactNode;
}) {
  const [cache] = useState(() => queryClient ?? createQueryClient());
  return (
    <ApiClientProvider client={apiClient}>
      <QueryClientProvider client={cache}>
        <SnackbarProvider>
          <ConfirmDialogProvider>{children}</ConfirmDialogProvider>
        </SnackbarProvider>
      </QueryClientProvider>
    </ApiClientProvider>
  );
}
