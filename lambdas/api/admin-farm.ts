import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/admin/farm (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/admin/farm', async () => (await import('../actions/admin-farm')).adminFarmHandlers);
