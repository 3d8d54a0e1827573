import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createApiClient } from '../lib/api-client';
import { configureAuth, getAccessToken, preloadAuth } from '../lib/auth-session';
import { loadWebConfig, webConfigQuery, WebConfigError } from '../lib/web-config';
import { App, createAppRouter } from './app';
import { createQueryClient } from './provider';
import { ConfigErrorPage } from './config-error-page';

/**
 * Start order (issue 14: as much as can run side by side does): the router first, which starts
 * downloading the current route's code, and Amplify's code; meanwhile the runtime config, then Amplify (Cognito pool and endpoint; configured once its code
 * has loaded, after the first paint), then the API client that takes its bearer from Amplify's
 * session (waiting for it), then the app. A bad config renders an error page.
 */
export const startApp = async (container: HTMLElement, fetchFn: typeof fetch = fetch): Promise<Root> => {
  const root = createRoot(container);
  // The route's chunks download while config.json does (the router loads them as it is made).
  const router = createAppRouter();
  // Amplify is not in the first load (lib/auth-session.ts); its code downloads while config.json does.
  preloadAuth();
  try {
    const config = await loadWebConfig(fetchFn);
    void configureAuth(config);
    const apiClient = createApiClient({ apiUrl: config.apiUrl, getAccessToken, fetch: fetchFn });
    // Screens read the config through webConfigQuery: the loaded one, not a second fetch.
    const queryClient = createQueryClient();
    queryClient.setQueryData(webConfigQuery.queryKey, config);
    root.render(
      <StrictMode>
        <App apiClient={apiClient} router={router} queryClient={queryClient} />
      </StrictMode>,
    );
  } catch (err) {
    router.dispose();
    const problems = err instanceof WebConfigError ? err.problems : [err instanceof Error ? err.message : String(err)];
    root.render(
      <StrictMode>
        <ConfigErrorPage problems={problems} />
      </StrictMode>,
    );
  }
  return root;
};
