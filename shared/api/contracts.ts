import type { Contract } from './contract';
import { adminDeviceContracts } from './actions/admin-device';
import { adminFarmContracts } from './actions/admin-farm';
import { adminUserContracts } from './actions/admin-user';
import { calibrationContracts } from './actions/calibration';
import { farmerActivityContracts } from './actions/farmer-activity';
import { farmerComplianceContracts } from './actions/farmer-compliance';
import { farmerDashboardContracts } from './actions/farmer-dashboard';
import { farmerEquipmentContracts } from './actions/farmer-equipment';
import { farmerLogFonterraContracts } from './actions/farmer-log-fonterra';
import { farmerNotificationContracts } from './actions/farmer-notification';
import { farmerOrganizationContracts } from './actions/farmer-organization';
import { farmerSettingContracts } from './actions/farmer-setting';
import { installerContracts } from './actions/installer';
import { milkQualityContracts } from './actions/milk-quality';
import { operatorContracts } from './actions/operator';
import { operatorFleetContracts } from './actions/operator-fleet';
import { farmerSurveyContracts, settingProfileContracts } from './actions/profile';
import { userContracts } from './actions/user';
import { pushAcknowledgeContracts, pushSubscriptionContracts } from './actions/push';

/**
 * Every declared action, for what looks at all of them at once: the authorization matrix test,
 * the server's check that each endpoint serves exactly its contracts, the docs. The web app imports
 * the contract modules it uses, not this list (a page should not load every schema).
 */
export const ALL_CONTRACTS: readonly Contract[] = [
  ...Object.values(userContracts),
  ...Object.values(farmerDashboardContracts),
  ...Object.values(farmerActivityContracts),
  ...Object.values(farmerNotificationContracts),
  ...Object.values(farmerSettingContracts),
  ...Object.values(farmerEquipmentContracts),
  ...Object.values(settingProfileContracts),
  ...Object.values(pushSubscriptionContracts),
  ...Object.values(pushAcknowledgeContracts),
  ...Object.values(farmerSurveyContracts),
  ...Object.values(operatorContracts),
  ...Object.values(milkQualityContracts),
  ...Object.values(adminDeviceContracts),
  ...Object.values(operatorFleetContracts),
  ...Object.values(adminUserContracts),
  ...Object.values(adminFarmContracts),
  ...Object.values(farmerOrganizationContracts),
  ...Object.values(farmerLogFonterraContracts),
  ...Object.values(calibrationContracts),
  ...Object.values(installerContracts),
  ...Object.values(farmerComplianceContracts),
];

export const contractsOf = (path: string): Contract[] => ALL_CONTRACTS.filter((c) => c.path === path);
