import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/setting (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/farmer/setting', async () => (await import('../actions/farmer-setting')).farmerSettingHandlers);
