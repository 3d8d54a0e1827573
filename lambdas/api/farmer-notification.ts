import { farmerNotificationActions } from '../actions/farmer-notification';
import { alertApiHandler } from '../alerts/api-handler';

/** /api/farmer/notification (spec §7): dispatches on `type`. */
export const handler = alertApiHandler('/api/farmer/notification', farmerNotificationActions);
