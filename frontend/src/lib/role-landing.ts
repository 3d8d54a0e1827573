import type { Role } from '@shared/roles';
import { MILK_QUALITY_PARTNER, paths } from '../config/paths';
import type { Session } from './auth-session';

/**
 * Where a signed-in user of each role starts (operator §2 /redirect, and after sign-in): the
 * operator areas for Admin, Milk Quality and Westlands; the device fleet for an Installer (the
 * installer's own tools, operator §2, are the only other area meant for them); the module
 * dashboard for a farmer, which sends a farmer with no farm on to the No Permission page.
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
      return paths.devices.to();
    case 'User':
      return paths.moduleDashboard.to();
  }
};

/** /redirect: the role's landing page (the authenticator enrolment first for an operator without one), or the login page without a session. */
export const landingPath = (session: Pick<Session, 'role' | 'needsTotp'> | null): string => {
  if (!session) return paths.login.to();
  return session.needsTotp ? paths.totpSetup.to() : roleLandingPath(session.role);
};
