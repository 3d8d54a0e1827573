import { adminUserActions } from '../actions/admin-user';
import { apiHandler } from '../lib/api-handler';

/** /api/admin/user (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/admin/user', adminUserActions);
