import { contractsOf } from '../../shared/api/contracts';
import type { EndpointPath } from '../../shared/api/endpoints';
import { farmerActivityActions } from '../actions/farmer-activity';
import { farmerDashboardActions } from '../actions/farmer-dashboard';
import { farmerEquipmentActions } from '../actions/farmer-equipment';
import { farmerNotificationActions } from '../actions/farmer-notification';
import { farmerOrganizationActions } from '../actions/farmer-organization';
import { farmerSettingActions } from '../actions/farmer-setting';
import { adminDeviceActions } from '../actions/admin-device';
import { adminUserActions } from '../actions/admin-user';
import { adminFarmActions } from '../actions/admin-farm';
import { calibrationActions, farmerLogFonterraActions, installerActions as calibrationApplyActions } from '../actions/dairy-company';
import { installerActions } from '../actions/installer';
import { milkQualityActions } from '../actions/milk-quality';
import { watchmanActions } from '../actions/operator';
import { farmerSurveyActions, settingProfileActions } from '../actions/profile';
import { userActions } from '../actions/user';
import type { ServedAction } from '../lib/dispatch';

/**
 * What each endpoint's Lambda serves. Each handler in this folder imports only its own actions
 * (small bundles); this map is for what looks at every function at once: the stack derives each
 * function's IAM grants from its actions' ports (cdk/lib/port-grants.ts), and a test checks every
 * entry serves exactly the contracts declared for its path.
 */
export const ACTIONS_BY_ENDPOINT: Readonly<Record<EndpointPath, readonly ServedAction[]>> = {
  '/api/user': userActions,
  '/api/farmer/dashboard': farmerDashboardActions,
  '/api/farmer/notification': farmerNotificationActions,
  '/api/farmer/setting': farmerSettingActions,
  '/api/setting/profile': settingProfileActions,
  '/api/farmer/activity': farmerActivityActions,
  '/api/farmer/organization': farmerOrganizationActions,
  '/api/farmer/equipment': farmerEquipmentActions,
  '/api/farmer/log/fonterra': farmerLogFonterraActions,
  '/api/farmer/survey': farmerSurveyActions,
  '/api/admin/user': adminUserActions,
  '/api/admin/device': adminDeviceActions,
  '/api/admin/farm': adminFarmActions,
  '/api/milkquality': milkQualityActions,
  '/api/installer': [...installerActions, ...calibrationApplyActions],
  '/api/calibration': calibrationActions,
  '/api/watchman': watchmanActions,
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
