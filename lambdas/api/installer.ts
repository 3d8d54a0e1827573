import { installerActions } from '../actions/installer';
import { apiHandler } from '../lib/api-handler';

/** /api/installer (operator §2 installer tools, §7). */
export const handler = apiHandler('/api/installer', installerActions);
