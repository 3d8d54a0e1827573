import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/watchman (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/watchman', async () => (await import('../actions/watchman')).watchmanHandlers);
