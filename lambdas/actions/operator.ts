import { operatorContracts as contracts } from '../../shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { serve, type ServedAction } from '../lib/dispatch';

/** /api/milkquality: Milk Quality and Westlands staff (operator spec §6). */
export const milkQualityActions: readonly ServedAction[] = [
  serve(contracts.WESTLANDS_FARMS, ['farms'], async (_input, { deps }) => {
    const farms = await deps.farms.listFarms();
    return farms.filter((f) => f.fonterra_id.toUpperCase().startsWith('WES')).map((f) => ({ _id: f._id, fonterra_id: f.fonterra_id }));
  }),
];

/** /api/watchman: admin and installer pages. Saved settings arrive with the Watchman issue. */
export const watchmanActions: readonly ServedAction[] = [
  serve(contracts.GET_SETTINGS, [], async () => ({ key: 'watchman' as const, settings: WATCHMAN_DEFAULTS })),
];
