import { operatorContracts as contracts } from '../../shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { serve, type ServedAction } from '../lib/dispatch';

/** /api/admin/user (operator spec §7): Admin only (the contract's rule). */
export const adminUserActions: readonly ServedAction[] = [serve(contracts.USER_LIST, ['farms'], async (_input, { deps }) => deps.farms.listUsers())];

/** /api/admin/farm: Admin only. */
export const adminFarmActions: readonly ServedAction[] = [
  serve(contracts.FARM_LIST, ['farms'], async (_input, { deps }) => {
    const [listFarm, listDevice] = await Promise.all([deps.farms.listFarms(), deps.farms.listDevices()]);
    return { listFarm, listDevice };
  }),
];

/** /api/watchman: admin and installer pages. Saved settings arrive with the Watchman issue. */
export const watchmanActions: readonly ServedAction[] = [
  serve(contracts.GET_SETTINGS, [], async () => ({ key: 'watchman' as const, settings: WATCHMAN_DEFAULTS })),
];
