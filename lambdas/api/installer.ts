import { installerActions as calibrationApplyActions } from '../actions/dairy-company';
import { installerActions } from '../actions/installer';
import { apiHandler } from '../lib/api-handler';

/** /api/installer (operator §2 installer tools, §7): the installer's types and calibration's Apply (VAT_SETTINGS). */
export const handler = apiHandler('/api/installer', [...installerActions, ...calibrationApplyActions]);
