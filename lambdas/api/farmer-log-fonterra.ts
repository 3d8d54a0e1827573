import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/log/fonterra (farmer §2.15, §7): the dairy-company reports per vat (FARMER_LOG_FONTERRA). */
export const handler = lazyApiHandler('/api/farmer/log/fonterra', async () => (await import('../actions/farmer-log-fonterra')).farmerLogFonterraHandlers);
