import { operatorContracts as contracts } from '../../shared/api/actions/operator';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { serve, type ServedAction } from '../lib/dispatch';

/** /api/watchman: admin and installer pages. Saved settings arrive with the Watchman issue. */
export const watchmanActions: readonly ServedAction[] = [
  serve(contracts.GET_SETTINGS, [], async () => ({ key: 'watchman' as const, settings: WATCHMAN_DEFAULTS })),
];
