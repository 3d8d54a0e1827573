import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/calibration (operator §7): COLLECTIONS joined with the dairy company's dockets, and VAT_CONFIG. */
export const handler = lazyApiHandler('/api/calibration', async () => (await import('../actions/calibration')).calibrationHandlers);
