import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Outlet, useNavigation } from 'react-router-dom';
import { LoadingBar } from '../components/loading-bar';
import { NoAccessProvider } from '../lib/no-access';
import { ApiEvents, useUnauthorizedRouting } from './api-events';

/** Wraps every route: the loading bar, the API client's global events and the §6 routing need the router. */
export function RootLayout() {
  const navigation = useNavigation();
  const busy = useIsFetching() + useIsMutating() > 0;
  const routeNoAccess = useUnauthorizedRouting();
  return (
    <>
      <LoadingBar active={busy || navigation.state !== 'idle'} />
      <ApiEvents routeUnauthorized={routeNoAccess} />
      <NoAccessProvider value={routeNoAccess}>
        <Outlet />
      </NoAccessProvider>
    </>
  );
}
