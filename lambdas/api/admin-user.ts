import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/admin/user (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/admin/user', async () => (await import('../actions/admin-user')).adminUserHandlers);
