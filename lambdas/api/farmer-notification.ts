import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/notification (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/farmer/notification', async () => (await import('../actions/farmer-notification')).farmerNotificationHandlers);
