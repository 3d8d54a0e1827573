import type { WebConfig } from '../../../shared/web-config';

/**
 * The signed-in session as the app needs it: the bearer for the API and the role for routing.
 * Amplify keeps the tokens (and refreshes them); this module is the only one that reads them.
 */
import type { Session } from './session';

export type { Session };

type AmplifySession = typeof import('./amplify-session');

/**
 * Amplify loads on first use, not with the page (it is about 30 kB gzipped, and the
 * sign-in page's first paint needs none of it). configureAuth starts the load at start-up, so the
 * session is usually ready by the time a screen asks for it; every read below waits for it.
 */
let amplify: Promise<AmplifySession> | undefined;
/** The module, configured by `configure` once loaded; a failed load (network) is tried again on the next call. */
const load = (configure: (m: AmplifySession) => void = () => undefined): Promise<AmplifySession> => {
  const loading = import('./amplify-session').then((m) => {
    configure(m);
    return m;
  });
  amplify = loading;
  loading.catch(() => {
    if (amplify === loading) amplify = undefined;
  });
  return loading;
};
const loadAmplify = (): Promise<AmplifySession> => amplify ?? load();

/** Starts Amplify's download (start-up, while config.json loads): configureAuth then finds it loaded. */
export const preloadAuth = (): void => {
  import('./amplify-session').catch(() => undefined);
};

/** Points Amplify at the pool (loading it); resolves once it is configured. */
export const configureAuth = async (config: WebConfig): Promise<void> => {
  await load((m) => m.configureAmplify(config));
};

/** Resolves once Amplify is loaded and configured: the auth API modules wait for it before calling Amplify. */
export const authReady = async (): Promise<void> => {
  await loadAmplify();
};

/** The current session, or null when signed out or the refresh failed. */
export const getSession = async (options: { forceRefresh?: boolean } = {}): Promise<Session | null> => (await loadAmplify()).getSession(options);

export const getAccessToken = async (): Promise<string | undefined> => (await getSession())?.accessToken;

export const isSignedIn = async (): Promise<boolean> => (await loadAmplify()).isSignedIn();

/** The name the signed-in user signed in with (their email), or null when signed out. */
export const signedInAs = async (): Promise<string | null> => (await loadAmplify()).signedInAs();

/** The service worker's shelf of saved read answers (`ANSWERS` in frontend/build/sw-template.js). */
export const SAVED_ANSWERS_CACHE = 'vatman-answers-v1';

/**
 * Clears the stored tokens (a failed global sign-out still clears them locally) and the answers
 * the service worker saved for opening offline: on a phone shared in the shed, the next person
 * must not open the last one's farms without a signal.
 */
export const signOutUser = async (): Promise<void> => {
  await (await loadAmplify()).signOutUser();
  if (typeof caches !== 'undefined') await caches.delete(SAVED_ANSWERS_CACHE).catch(() => false);
};
