import { settingProfileActions } from '../actions/profile';
import { apiHandler } from '../lib/api-handler';

/** /api/setting/profile (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/setting/profile', settingProfileActions);
