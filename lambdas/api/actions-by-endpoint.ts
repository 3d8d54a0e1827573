import { contractsOf } from '../../shared/api/contracts';
import type { EndpointPath } from '../../shared/api/endpoints';
import { farmerActivityHandlers } from '../actions/farmer-activity';
import { farmerDashboardHandlers } from '../actions/farmer-dashboard';
import { farmerEquipmentHandlers } from '../actions/farmer-equipment';
import { farmerNotificationHandlers } from '../actions/farmer-notification';
import { farmerOrganizationHandlers } from '../actions/farmer-organization';
import { farmerSettingHandlers } from '../actions/farmer-setting';
import { adminDeviceHandlers } from '../actions/admin-device';
import { adminUserHandlers } from '../actions/admin-user';
import { adminFarmHandlers } from '../actions/admin-farm';
import { calibrationHandlers } from '../actions/calibration';
import { farmerLogFonterraHandlers } from '../actions/farmer-log-fonterra';
import { installerHandlers } from '../actions/installer';
import { milkQualityHandlers } from '../actions/milkquality';
import { watchmanHandlers } from '../actions/watchman';
import { farmerSurveyHandlers } from '../actions/farmer-survey';
import { settingProfileHandlers } from '../actions/setting-profile';
import { userHandlers } from '../actions/user';
import type { ServedAction } from '../lib/dispatch';

/**
 * What each endpoint's Lambda serves. Each handler in this folder imports only its own actions
 * (small bundles); this map is for what looks at every function at once: the stack derives each
 * function's IAM grants from its actions' ports (cdk/lib/port-grants.ts), and a test checks every
 * entry serves exactly the contracts declared for its path.
 */
export const ACTIONS_BY_ENDPOINT: Readonly<Record<EndpointPath, readonly ServedAction[]>> = {
  '/api/user': userHandlers,
  '/api/farmer/dashboard': farmerDashboardHandlers,
  '/api/farmer/notification': farmerNotificationHandlers,
  '/api/farmer/setting': farmerSettingHandlers,
  '/api/setting/profile': settingProfileHandlers,
  '/api/farmer/activity': farmerActivityHandlers,
  '/api/farmer/organization': farmerOrganizationHandlers,
  '/api/farmer/equipment': farmerEquipmentHandlers,
  '/api/farmer/log/fonterra': farmerLogFonterraHandlers,
  '/api/farmer/survey': farmerSurveyHandlers,
  '/api/admin/user': adminUserHandlers,
  '/api/admin/device': adminDeviceHandlers,
  '/api/admin/farm': adminFarmHandlers,
  '/api/milkquality': milkQualityHandlers,
  '/api/installer': installerHandlers,
  '/api/calibration': calibrationHandlers,
  '/api/watchman': watchmanHandlers,
};

/** Throws unless `actions` serve exactly the contracts declared for `path`, each once. */
export const checkServes = (path: EndpointPath, actions: readonly ServedAction[]): void => {
  const served = new Set(actions.map((a) => a.contract));
  const stray = actions.filter((a) => a.contract.path !== path).map((a) => a.contract.type);
  const missing = contractsOf(path).filter((c) => !served.has(c)).map((c) => c.type);
  const twice = served.size !== actions.length;
  if (stray.length || missing.length || twice) {
    throw new Error(`${path}: serves ${stray.join(', ') || 'nothing'} of another path; declared but not served: ${missing.join(', ') || 'none'}${twice ? '; a contract served twice' : ''}`);
  }
};
