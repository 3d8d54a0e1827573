import { adminFarmActions } from '../actions/admin-farm';
import { apiHandler } from '../lib/api-handler';

/** /api/admin/farm (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/admin/farm', adminFarmActions);
