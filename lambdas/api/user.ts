import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/user (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/user', async () => (await import('../actions/user')).userHandlers);
