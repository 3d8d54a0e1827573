import { farmerSettingActions } from '../actions/farmer-setting';
import { alertApiHandler } from '../alerts/api-handler';

/** /api/farmer/setting (spec §7): dispatches on `type`. */
export const handler = alertApiHandler('/api/farmer/setting', farmerSettingActions);
