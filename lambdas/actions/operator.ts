import {
  adminDeviceActions as deviceSchemas,
  adminFarmActions as farmSchemas,
  adminUserActions as userSchemas,
  milkQualityActions as mqSchemas,
  watchmanActions as watchmanSchemas,
} from '../../shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { requireOperator } from '../lib/access';
import type { Actions } from '../lib/api-handler';
import { action } from '../lib/dispatch';

/** /api/admin/user (operator spec §7): Admin only. */
export const adminUserActions: Actions = {
  USER_LIST: action(userSchemas.USER_LIST, async (_input, { caller, deps }) => {
    requireOperator(caller, 'Admin');
    return deps.farms.listUsers();
  }),
};

/** /api/admin/device: admin and installer pages (operator spec §6). */
export const adminDeviceActions: Actions = {
  DEVICE_LIST: action(deviceSchemas.DEVICE_LIST, async ({ isRetired }, { caller, deps }) => {
    requireOperator(caller, 'Installer');
    const devices = await deps.farms.listDevices();
    return devices.filter((d) => d.status === isRetired).sort((a, b) => a.name.localeCompare(b.name));
  }),
};

/** /api/admin/farm: Admin only. */
export const adminFarmActions: Actions = {
  FARM_LIST: action(farmSchemas.FARM_LIST, async (_input, { caller, deps }) => {
    requireOperator(caller, 'Admin');
    const [listFarm, listDevice] = await Promise.all([deps.farms.listFarms(), deps.farms.listDevices()]);
    return { listFarm, listDevice };
  }),
};

/** /api/milkquality: Milk Quality and Westlands staff (operator spec §6). */
export const milkQualityActions: Actions = {
  WESTLANDS_FARMS: action(mqSchemas.WESTLANDS_FARMS, async (_input, { caller, deps }) => {
    requireOperator(caller, 'Westlands');
    const farms = await deps.farms.listFarms();
    return farms.filter((f) => f.fonterra_id.toUpperCase().startsWith('WES')).map((f) => ({ _id: f._id, fonterra_id: f.fonterra_id }));
  }),
};

/** /api/watchman: admin and installer pages. Saved settings arrive with the Watchman issue. */
export const watchmanActions: Actions = {
  GET_SETTINGS: action(watchmanSchemas.GET_SETTINGS, async (_input, { caller }) => {
    requireOperator(caller, 'Installer');
    return { key: 'watchman', settings: WATCHMAN_DEFAULTS };
  }),
};
