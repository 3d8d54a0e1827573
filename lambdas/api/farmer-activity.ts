import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/activity (spec §7): milk dashboard ranges, milkings, storage, collections, agitator stops, pickups. */
export const handler = lazyApiHandler('/api/farmer/activity', async () => (await import('../actions/farmer-activity')).farmerActivityHandlers);
