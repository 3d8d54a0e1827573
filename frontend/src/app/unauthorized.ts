import type { Role } from '@shared/roles';
import { MILK_QUALITY_PARTNER, paths } from '../config/paths';
import type { Session } from '../lib/auth-session';

/**
 * Where a signed-in user of each role starts (operator §2 /redirect): the operator areas for
 * Admin, Milk Quality and Westlands, the module dashboard for everyone else.
 */
export const roleLandingPath = (role: Role): string => {
  switch (role) {
    case 'Admin':
      return paths.users.to();
    case 'Milk Quality':
      return paths.partnerMilkQuality.to(MILK_QUALITY_PARTNER);
    case 'Westlands':
      return paths.westlandsArea.to();
    case 'Installer':
    case 'User':
      return paths.moduleDashboard.to();
  }
};

/** /redirect: the role's landing page, or the login page without a session. */
export const landingPath = (session: Pick<Session, 'role'> | null): string => (session ? roleLandingPath(session.role) : paths.login.to());

/**
 * Where a 401 sends the user (farmer §6, operator §4), or null to stay. The role comes from the
 * token's cognito:groups claim. (The herd-site rule of §6 waits for the herd integration.)
 */
export const unauthorizedRedirect = (session: Pick<Session, 'role'> | null, currentPath: string): string | null => {
  if (!session) {
    // Already on the login page: a 401 there (e.g. a stale bearer) must not nest reurls.
    if (currentPath.startsWith('/dts/login')) return null;
    return paths.login.to(currentPath);
  }
  switch (session.role) {
    // An admin with a token, and Milk Quality, go to their own areas …
    case 'Admin':
    case 'Milk Quality':
      return roleLandingPath(session.role);
    // … everyone else with a session (Westlands included, farmer §6) to the permission page.
    case 'Installer':
    case 'Westlands':
    case 'User':
      return paths.permission.to();
  }
};
