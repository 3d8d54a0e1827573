import { farmerNotificationActions } from '../actions/farmer-notification';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/notification (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/farmer/notification', farmerNotificationActions);
