import { MSG_TOTP_REQUIRED } from '@shared/roles';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSnackbar } from '../components/snackbar';
import { herdUrl } from '../features/shell/utils/menu';
import { useApiClient } from '../lib/api-client-provider';
import { getSession, type Session } from '../lib/auth-session';
import type { NoAccess, NoAccessOutcome, RouteNoAccess } from '../lib/no-access';
import { webConfigQuery } from '../lib/web-config';
import { unauthorizedRedirect } from './unauthorized';

/** Time to read 'An error occurred, please try again!' before the page reloads for a fresh bot-check. */
export const RELOAD_DELAY_MS = 1_500;

const reloadPage = (): void => window.location.reload();
const leaveForSite = (href: string): void => window.location.assign(href);

/**
 * The herd token link of the user the farmer shell last loaded, if any (for a 401 elsewhere). The
 * answer's schema loads here, on a 401, not with every page (it brings the full zod).
 */
const cachedHerdLink = async (queryClient: QueryClient): Promise<string | undefined> => {
  const cached = queryClient.getQueriesData({ queryKey: ['user', 'current'] });
  if (cached.length === 0) return undefined;
  // Loaded at start-up, so this answers from the cache; without it there is no herd link.
  const herdSiteUrl = (await queryClient.fetchQuery(webConfigQuery).catch(() => undefined))?.herdSiteUrl;
  const { currentUserAnswerSchema } = await import('@shared/api/actions/user');
  for (const [, data] of cached) {
    const user = currentUserAnswerSchema.safeParse(data).data?.user;
    if (user) return herdUrl(user, herdSiteUrl);
  }
  return undefined;
};

interface RoutingOptions {
  readonly loadSession?: () => Promise<Pick<Session, 'role'> | null>;
  readonly openSite?: (href: string) => void;
}

/**
 * The unauthorized routing of farmer §6 as a function of the current location: used for every
 * 401 and, through src/lib/no-access.ts, by screens that find a user they cannot serve.
 */
export function useUnauthorizedRouting({ loadSession = getSession, openSite = leaveForSite }: RoutingOptions = {}): RouteNoAccess {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = useRef(`${location.pathname}${location.search}`);

  useEffect(() => {
    here.current = `${location.pathname}${location.search}`;
  }, [location.pathname, location.search]);

  return useCallback(
    async (who?: NoAccess): Promise<NoAccessOutcome> => {
      const session = await loadSession();
      const herdLink = who ? who.herdLink : await cachedHerdLink(queryClient);
      const target = unauthorizedRedirect(session, here.current, herdLink);
      if (!target) return 'stay';
      if (target.kind === 'site') openSite(target.href);
      // Several calls failing at once each emit; replace keeps one history entry.
      else navigate(target.to, { replace: true });
      return 'left';
    },
    [loadSession, openSite, queryClient, navigate],
  );
}

interface ApiEventsProps {
  readonly reload?: () => void;
  /** The routing of a 401 (useUnauthorizedRouting). */
  readonly routeUnauthorized: RouteNoAccess;
}

/**
 * The app shell's side of the API client's events: failures the caller did not handle go to the
 * snackbar (farmer §8), a 401 routes by role (farmer §6). Renders nothing.
 */
export function ApiEvents({ reload = reloadPage, routeUnauthorized }: ApiEventsProps) {
  const client = useApiClient();
  const snackbar = useSnackbar();

  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const off = client.on('error', (error) => {
      // An operator without an authenticator app: to the enrolment screen, not a snackbar.
      if (error.status === 403 && error.serverMessage === MSG_TOTP_REQUIRED) {
        void routeUnauthorized();
        return;
      }
      snackbar.show(error.userMessage, 'error');
      if (error.reload) timers.push(setTimeout(reload, RELOAD_DELAY_MS));
    });
    return () => {
      off();
      timers.forEach(clearTimeout);
    };
  }, [client, snackbar, reload, routeUnauthorized]);

  useEffect(() => client.on('unauthorized', () => void routeUnauthorized()), [client, routeUnauthorized]);

  return null;
}
