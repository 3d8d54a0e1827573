import { matchPath } from 'react-router-dom';
import type { User } from '@shared/entities/user';
import type { Role } from '@shared/roles';
import { paths } from '../../../config/paths';

export interface MenuItem {
  readonly label: string;
  readonly to: string;
  /** A link to another site (the herd site): a plain <a>, not a router link. */
  readonly external?: boolean;
  /** The heading the item sits under (operators' menus); none for the farmer's items. */
  readonly group?: string;
  /**
   * The route patterns the item stands for besides its own (the pages reached through its tabs or
   * its list): the menu marks the item on them as well.
   */
  readonly covers?: readonly string[];
}

const HERD_LABEL = 'Herd';

/**
 * The herd site's token link (farmer §2.2, §6): only for herd-enabled users, and only where the
 * site is configured and the user has a token id to hand over.
 */
export const herdUrl = (user: Pick<User, 'is_herd_enabled' | 'token_id'>, herdSiteUrl: string | undefined): string | undefined => {
  if (user.is_herd_enabled !== 1 || !herdSiteUrl || !user.token_id) return undefined;
  return `${herdSiteUrl}?token=${encodeURIComponent(user.token_id)}`;
};

/** The farm tab bar's pages (farmer §2.2) other than Notifications, which is the Alerts item's own. */
const MILK_PAGES = [
  paths.storageData,
  paths.storage,
  paths.collection,
  paths.agitator,
  paths.pickup,
  paths.milking,
  paths.milkingDetail,
  paths.compliance,
  paths.equipment,
  paths.equipmentBuilder,
  paths.alertSettings,
].map((p) => p.pattern);

const FARM_ITEMS: readonly MenuItem[] = [
  { label: 'Dashboard', to: paths.moduleDashboard.to() },
  { label: 'Milk', to: paths.milkDashboard.to(), covers: MILK_PAGES },
  { label: 'Alerts', to: paths.notifications.to() },
];

const FLEET_LABEL = 'Fleet';
const OPERATIONS = 'Operations';
const INSTALLER = 'Installer tools';
const TOOLS = 'Tools';

const fleet: MenuItem = { label: FLEET_LABEL, to: paths.fleet.to(), group: OPERATIONS, covers: [paths.fleetIngest.pattern] };
const devices: MenuItem = { label: 'Devices', to: paths.devices.to(), group: OPERATIONS, covers: [paths.device.pattern, paths.virtualDevices.pattern] };
/** Operator §2's installer pages, in the order an install goes. */
const installerTools: readonly MenuItem[] = [
  { label: 'Config', to: paths.installerConfig.to(), group: INSTALLER },
  { label: 'New Install', to: paths.installerNew.to(), group: INSTALLER },
  { label: 'Install Log', to: paths.installerLog.to(), group: INSTALLER },
  { label: 'Check Install', to: paths.installerCheck.to(), group: INSTALLER },
  { label: 'Help', to: paths.installerHelp.to(), group: INSTALLER },
];
const calibration: MenuItem = { label: 'Calibration', to: paths.calibration.to(), group: TOOLS };
const watchman: MenuItem = { label: 'Watchman', to: paths.watchman.to(), group: TOOLS };

/**
 * The left menu by role (farmer §2.2, §6; operator §6). The role is the one the server read from
 * the caller's Cognito groups, and an operator's only in a session that answered the authenticator
 * (lambdas/actions/user.ts); the gating is cosmetic, the server decides every call.
 * - Admin: the farm items, Users and Westlands Data (the spec's), and every operator page.
 * - Installer: their tools only (operator §6: devices, installer pages, calibration, Watchman),
 *   with the fleet overview they land on.
 * - Westlands keeps Westlands Data; Milk Quality and Westlands have their own shells besides.
 */
export const menuItems = (role: Role | string, herd: string | undefined): MenuItem[] => {
  const herdItem: MenuItem[] = herd ? [{ label: HERD_LABEL, to: herd, external: true }] : [];
  if (role === 'Installer') return [fleet, devices, ...installerTools, calibration, watchman, ...herdItem];
  if (role === 'Admin') {
    return [
      ...FARM_ITEMS,
      fleet,
      { label: 'Users', to: paths.users.to(), group: OPERATIONS },
      devices,
      { label: 'Farms', to: paths.farms.to(), group: OPERATIONS },
      ...installerTools,
      calibration,
      watchman,
      { label: 'Milk Quality', to: paths.milkQuality.to(), group: TOOLS },
      { label: 'Westlands Data', to: paths.westlandsData.to(), group: TOOLS },
      ...herdItem,
    ];
  }
  return [...FARM_ITEMS, ...(role === 'Westlands' ? [{ label: 'Westlands Data', to: paths.westlandsData.to() }] : []), ...herdItem];
};

/** Whether the item is the page at `pathname`: its own path exactly, or one of the pages it covers. */
export const isCurrent = (item: MenuItem, pathname: string): boolean =>
  !item.external && [item.to, ...(item.covers ?? [])].some((pattern) => matchPath({ path: pattern, end: true }, pathname) !== null);

/** The operators' roles in the main shell: a search in the top bar and the fleet overview. */
export const isFleetOperator = (role: string): boolean => role === 'Admin' || role === 'Installer';
