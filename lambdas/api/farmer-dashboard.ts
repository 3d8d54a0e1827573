import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/dashboard (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/farmer/dashboard', async () => (await import('../actions/farmer-dashboard')).farmerDashboardHandlers);
