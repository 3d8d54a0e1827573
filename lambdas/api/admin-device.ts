import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/admin/device (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/admin/device', async () => (await import('../actions/admin-device')).adminDeviceHandlers);
