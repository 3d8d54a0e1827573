import { startTransition, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createApiClient } from '../lib/api-client';
import { earlyCallsStarting } from '../lib/early-call';
import { configureAuth, getAccessToken, preloadAuth } from '../lib/auth-session';
import { loadWebConfig, webConfigQuery, WebConfigError } from '../lib/web-config';
import { App, createAppRouter, firstScreen } from './app';
import { createQueryClient } from './provider';
import { ConfigErrorPage } from './config-error-page';

/**
 * Opens the connection to the API while the screen's code loads (its calls carry no cookies), when
 * the API is on another origin (a development setup): on the site's own origin (`/api/*`, as
 * deployed and locally) the page's connections already serve it, and an anonymous preconnect there
 * would open a connection that the calls, which go with the site's credentials, do not use.
 */
export const preconnect = (url: string): void => {
  const origin = new URL(url, location.href).origin;
  if (origin === location.origin) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  link.crossOrigin = 'anonymous';
  document.head.append(link);
};

/**
 * Start order (what can run side by side does): the runtime config, Amplify's code, a
 * farmer-shell screen's early calls' code and the router, which starts downloading the current
 * route's code, all at once; once the config is
 * in, Amplify is configured (Cognito pool and endpoint), the API client takes its bearer from
 * Amplify's session (waiting for it), a farmer-shell screen's first API calls start, and the app
 * renders. A bad config renders an error page.
 */
export const startApp = async (container: HTMLElement, fetchFn: typeof fetch = fetch): Promise<Root> => {
  const root = createRoot(container);
  // config.json first (index.html preloads it), then Amplify's code (not in the first load,
  // lib/auth-session.ts), then on a farmer-shell screen the early calls' small chunk, then the
  // route's chunks, which the router loads as it is made: a browser opens a few connections per
  // host, so what is asked for first arrives first, and the early calls need neither the screen's
  // code nor its zod schemas.
  const loading = loadWebConfig(fetchFn);
  preloadAuth();
  const first = firstScreen();
  const shellCalls = first.shell ? import('../features/shell/api/early-calls') : undefined;
  shellCalls?.catch(() => undefined);
  const router = createAppRouter();
  // A browser's first Intl call loads its locale data (about 20 ms of a phone's main thread, 80 ms
  // at Lighthouse's 4x slowdown), whichever formatter comes first: on a shell screen, which formats
  // times and figures, that is done now, while config.json downloads, not in a task after the first
  // paint.
  if (first.shell) Intl.DateTimeFormat().resolvedOptions();
  try {
    const config = await loading;
    void configureAuth(config);
    const apiClient = createApiClient({ apiUrl: config.apiUrl, getAccessToken, fetch: fetchFn });
    if (first.shell) preconnect(config.apiUrl);
    if (shellCalls) earlyCallsStarting(shellCalls.then((m) => m.startShellCalls(apiClient, first)));
    // Screens read the config through webConfigQuery: the loaded one, not a second fetch.
    const queryClient = createQueryClient();
    queryClient.setQueryData(webConfigQuery.queryKey, config);
    // A transition: React renders the app in slices of a few milliseconds that give the
    // main thread back in between, not in one long task (a phone's first render of cold code).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App apiClient={apiClient} router={router} queryClient={queryClient} />
        </StrictMode>,
      ),
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
