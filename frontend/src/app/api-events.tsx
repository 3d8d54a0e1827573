import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSnackbar } from '../components/snackbar';
import { useApiClient } from '../lib/api-client-provider';
import { getSession, type Session } from '../lib/auth-session';
import { unauthorizedRedirect } from './unauthorized';

/** Time to read 'An error occurred, please try again!' before the page reloads for a fresh bot-check. */
export const RELOAD_DELAY_MS = 1_500;

const reloadPage = (): void => window.location.reload();

interface ApiEventsProps {
  readonly reload?: () => void;
  readonly loadSession?: () => Promise<Pick<Session, 'role'> | null>;
}

/**
 * The app shell's side of the API client's events: failures the caller did not handle go to the
 * snackbar (farmer §8), a 401 routes by role (farmer §6). Renders nothing.
 */
export function ApiEvents({ reload = reloadPage, loadSession = getSession }: ApiEventsProps) {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(`${location.pathname}${location.search}`);

  useEffect(() => {
    here.current = `${location.pathname}${location.search}`;
  }, [location.pathname, location.search]);

  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const off = client.on('error', (error) => {
      snackbar.show(error.userMessage, 'error');
      if (error.reload) timers.push(setTimeout(reload, RELOAD_DELAY_MS));
    });
    return () => {
      off();
      timers.forEach(clearTimeout);
    };
  }, [client, snackbar, reload]);

  useEffect(
    () =>
      client.on('unauthorized', () => {
        void loadSession().then((session) => {
          const target = unauthorizedRedirect(session, here.current);
          // Several calls failing at once each emit; only the first one moves.
          if (target && target !== here.current) navigate(target, { replace: true });
        });
      }),
    [client, navigate, loadSession],
  );

  return null;
}
