import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './api-client';

const ApiClientContext = createContext<ApiClient | null>(null);

/** The client is built at start from the runtime config, so it reaches features through context. */
export function ApiClientProvider({ client, children }: { readonly client: ApiClient; readonly children: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export const useApiClient = (): ApiClient => {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient must be used inside <ApiClientProvider>');
  return client;
};
