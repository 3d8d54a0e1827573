import { farmerSettingActions } from '../actions/farmer-setting';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/setting (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/farmer/setting', farmerSettingActions);
