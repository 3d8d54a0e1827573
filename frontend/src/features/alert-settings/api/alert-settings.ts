import type { AlertSettings, AutoSettings } from '@shared/alerts/settings';
import { farmerSettingContracts as c } from '@shared/api/actions/farmer-setting';
import type { ApiClient } from '../../../lib/api-client';

// The read is shared with the dashboard's Auto tile, so it lives in lib/queries.
export { alertSettingsQuery, type VatSettings } from '../../../lib/queries/alert-settings';

/** USER_SETTING_ALERT_SET: the fields the form shows; the server keeps the others. */
export const saveAlertSettings = (client: ApiClient, farmId: string, values: Partial<AlertSettings>) =>
  client.call(c.USER_SETTING_ALERT_SET, { farm: farmId, alert_setting: values });

/** USER_SETTING_ALERT_SET_AUTO: one vat's controller settings; answers the vat's return_value. */
export const saveAutoSettings = (client: ApiClient, farmId: string, vatId: string, values: AutoSettings) =>
  client.call(c.USER_SETTING_ALERT_SET_AUTO, { farm: farmId, vat: { _id: vatId, ...values } });
