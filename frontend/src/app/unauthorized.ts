import { matchPath } from 'react-router-dom';
import { MILK_QUALITY_PARTNER, paths } from '../config/paths';
import type { Session } from '../lib/auth-session';

/** Where the unauthorized routing sends the user: a screen of this app, or another site. */
type Destination = { readonly kind: 'route'; readonly to: string } | { readonly kind: 'site'; readonly href: string };

/**
 * The pages a herd-enabled user stays on when the app finds no access (farmer §6 "or stay on
 * some pages"): the ones that work without a farm of theirs. The module dashboard carries the herd
 * card, and profile and notification settings belong to the person, not to a farm. The spec does
 * not list the pages; this is the choice, kept here in one place.
 */
const HERD_STAY_PATTERNS: readonly string[] = [paths.moduleDashboard.pattern, paths.profile.pattern, paths.userSettings.pattern];

const pathOnly = (path: string): string => path.split(/[?#]/, 1)[0] ?? path;

const isHerdStayPage = (currentPath: string): boolean =>
  HERD_STAY_PATTERNS.some((pattern) => matchPath({ path: pattern, end: true }, pathOnly(currentPath)) !== null);

/**
 * Where an unauthorized event sends the user (farmer §6, operator §4), or null to stay:
 * - an operator whose token says no authenticator app goes to enrol one (/dts/authenticator);
 * - an Admin with a session goes to /dts/users;
 * - a herd-enabled user with a herd token (`herdLink`, the herd site's token login from
 *   features/shell/utils/menu.ts `herdUrl`) stays on the pages of HERD_STAY_PATTERNS and goes to
 *   the herd site's login from anywhere else;
 * - Milk Quality goes to its own area, /dts/fonterra/milkquality;
 * - anyone else with a session (Installer, Westlands, farmers) to the No Permission page;
 * - no session: the login page, carrying the current path as reurl.
 * The role comes from the token's cognito:groups claim. A target equal to the current path is
 * returned as null (nothing to do).
 */
export const unauthorizedRedirect = (
  session: Pick<Session, 'role' | 'needsTotp'> | null,
  currentPath: string,
  herdLink?: string,
): Destination | null => {
  const route = (to: string): Destination | null => (to === currentPath || to === pathOnly(currentPath) ? null : { kind: 'route', to });
  if (!session) {
    // Already on the login page: a 401 there (e.g. a stale bearer) must not nest reurls.
    if (currentPath.startsWith('/dts/login')) return null;
    return route(paths.login.to(currentPath));
  }
  // An operator without an authenticator app is refused every operator action (403) until they enrol one.
  if (session.needsTotp) return route(paths.totpSetup.to());
  if (session.role === 'Admin') return route(paths.users.to());
  if (herdLink) return isHerdStayPage(currentPath) ? null : { kind: 'site', href: herdLink };
  switch (session.role) {
    case 'Milk Quality':
      return route(paths.partnerMilkQuality.to(MILK_QUALITY_PARTNER));
    case 'Installer':
    case 'Westlands':
    case 'User':
      return route(paths.permission.to());
  }
};
