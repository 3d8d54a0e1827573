import { installerActions } from '../actions/dairy-company';
import { apiHandler } from '../lib/api-handler';

/**
 * /api/installer (operator §7). VAT_SETTINGS (calibration's Apply) is built; the installer tools'
 * other types are built by their own issue (docs/architecture.md, "Endpoints and their types") and
 * answer 422 'Unknown type' until then.
 */
export const handler = apiHandler('/api/installer', installerActions);
