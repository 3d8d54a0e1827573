import { adminDeviceActions } from '../actions/admin-device';
import { apiHandler } from '../lib/api-handler';

/** /api/admin/device (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/admin/device', adminDeviceActions);
