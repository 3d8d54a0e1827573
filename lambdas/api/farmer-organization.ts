import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/organization (spec §7): the organization tree, its users and its Summary (ORGANIZATION_LIST, _ADD, _EDIT, _DELETE, _USER_ADD, _USER_UNLINK). */
export const handler = lazyApiHandler('/api/farmer/organization', async () => (await import('../actions/farmer-organization')).farmerOrganizationHandlers);
