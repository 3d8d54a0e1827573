import type { Role } from '@shared/roles';
import { MILK_QUALITY_PARTNER, paths } from '../config/paths';
import type { Session } from './auth-session';

/**
 * Where a signed-in user of each role starts (operator §2 /redirect, and after sign-in): the fleet
 * overview for Admin and Installer (what needs them first: silent units, open cases, alerts); the
 * partner areas for Milk Quality and Westlands; the module dashboard for a farmer, which sends a
 * farmer with no farm on to the No Permission page. An unauthorized event routes by farmer §6
 * instead (app/unauthorized.ts).
 */
export const roleLandingPath = (role: Role): string => {
  switch (role) {
    case 'Admin':
    case 'Installer':
      return paths.fleet.to();
    case 'Milk Quality':
      return paths.partnerMilkQuality.to(MILK_QUALITY_PARTNER);
    case 'Westlands':
      return paths.westlandsArea.to();
    case 'User':
      return paths.moduleDashboard.to();
  }
};

/** /redirect: the role's landing page (the authenticator enrolment first for an operator without one), or the login page without a session. */
export const landingPath = (session: Pick<Session, 'role' | 'needsTotp'> | null): string => {
  if (!session) return paths.login.to();
  return session.needsTotp ? paths.totpSetup.to() : roleLandingPath(session.role);
};
