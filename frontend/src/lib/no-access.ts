import { createContext, useContext } from 'react';

/** What a screen knows about a user it cannot serve (farmer §6). */
export interface NoAccess {
  /** The herd site's token login, for a herd-enabled user with a herd token. */
  readonly herdLink?: string;
}

/** 'left': the user was sent elsewhere; 'stay': the rule keeps them on the current page. */
export type NoAccessOutcome = 'left' | 'stay';

/**
 * Routes a signed-in user the app cannot serve here (no farm linked, no profile) the way a 401 is
 * routed (farmer §6). The app shell provides it (src/app/api-events.tsx), so features apply the
 * rule without importing the app.
 */
export type RouteNoAccess = (who?: NoAccess) => Promise<NoAccessOutcome>;

const NoAccessContext = createContext<RouteNoAccess | null>(null);

export const NoAccessProvider = NoAccessContext.Provider;

export const useRouteNoAccess = (): RouteNoAccess => {
  const route = useContext(NoAccessContext);
  if (!route) throw new Error('useRouteNoAccess needs the app shell (RootLayout) above it');
  return route;
};
