import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Outlet, useNavigation } from 'react-router-dom';
import { LoadingBar } from '../components/loading-bar';
import { ApiEvents } from './api-events';

/** Wraps every route: the loading bar and the API client's global events need the router. */
export function RootLayout() {
  const navigation = useNavigation();
  const busy = useIsFetching() + useIsMutating() > 0;
  return (
    <>
      <LoadingBar active={busy || navigation.state !== 'idle'} />
      <ApiEvents />
      <Outlet />
    </>
  );
}
