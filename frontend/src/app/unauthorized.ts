import { MILK_QUALITY_PARTNER, paths } from '../config/paths';
import type { Session } from '../lib/auth-session';

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
    case 'Admin':
      return paths.users.to();
    case 'Milk Quality':
      return paths.partnerMilkQuality.to(MILK_QUALITY_PARTNER);
    case 'Installer':
    case 'Westlands':
    case 'User':
      return paths.permission.to();
  }
};
