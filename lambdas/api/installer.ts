import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/installer (operator §2 installer tools, §7): the installer's types and calibration's Apply (VAT_SETTINGS). */
export const handler = lazyApiHandler('/api/installer', async () => {
  const [{ calibrationApplyHandlers }, { installerHandlers }] = await Promise.all([import('../actions/dairy-company'), import('../actions/installer')]);
  return [...installerHandlers, ...calibrationApplyHandlers];
});
