import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/setting/profile (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/setting/profile', async () => (await import('../actions/setting-profile')).settingProfileHandlers);
