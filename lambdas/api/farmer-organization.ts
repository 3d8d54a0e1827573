import { farmerOrganizationActions } from '../actions/farmer-organization';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/organization (spec §7): the organization tree, its users and its Summary (ORGANIZATION_LIST, _ADD, _EDIT, _DELETE, _USER_ADD, _USER_UNLINK). */
export const handler = apiHandler('/api/farmer/organization', farmerOrganizationActions);
