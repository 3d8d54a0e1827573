import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/milkquality (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/milkquality', async () => (await import('../actions/milkquality')).milkQualityHandlers);
