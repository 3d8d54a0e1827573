import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/installer (operator §2 installer tools, §7): the installer's types and calibration's Apply (VAT_SETTINGS). */
export const handler = lazyApiHandler('/api/installer', async () => (await import('../actions/installer')).installerHandlers);
