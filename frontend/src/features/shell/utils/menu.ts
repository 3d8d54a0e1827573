import type { User } from '@shared/entities/user';
import { paths } from '../../../config/paths';

export interface MenuItem {
  readonly label: string;
  readonly to: string;
  /** A link to another site (the herd site): a plain <a>, not a router link. */
  readonly external?: boolean;
}

export const HERD_LABEL = 'Herd';

/**
 * The herd site's token link (farmer §2.2, §6): only for herd-enabled users, and only where the
 * site is configured and the user has a token id to hand over.
 */
export const herdUrl = (user: Pick<User, 'is_herd_enabled' | 'token_id'>, herdSiteUrl: string | undefined): string | undefined => {
  if (user.is_herd_enabled !== 1 || !herdSiteUrl || !user.token_id) return undefined;
  return `${herdSiteUrl}?token=${encodeURIComponent(user.token_id)}`;
};

/** The left menu by role (farmer §2.2, §6): the gating is cosmetic; the server decides access. */
export const menuItems = (role: string, herd: string | undefined): MenuItem[] => [
  { label: 'Dashboard', to: paths.moduleDashboard.to() },
  { label: 'Milk', to: paths.milkDashboard.to() },
  { label: 'Alerts', to: paths.notifications.to() },
  ...(role === 'Admin' ? [{ label: 'Users', to: paths.users.to() }] : []),
  ...(role === 'Admin' || role === 'Westlands' ? [{ label: 'Westlands Data', to: paths.westlandsData.to() }] : []),
  ...(herd ? [{ label: HERD_LABEL, to: herd, external: true }] : []),
];
