import { queryOptions } from '@tanstack/react-query';
import type { AlertSettings, AutoSettings } from '@shared/alerts/settings';
import {
  alertSettingsAnswerSchema,
  alertSettingsSetAnswerSchema,
  autoSettingsSetAnswerSchema,
  type AlertSettingsAnswer,
} from '@shared/api/actions/farmer-setting';
import type { ApiClient } from '../../../lib/api-client';

const PATH = '/api/farmer/setting';

export type { AlertSettingsAnswer };
export type VatSettings = AlertSettingsAnswer['vats'][number];

export const alertSettingsQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'alert', farmId] as const,
    queryFn: ({ signal }) => client.post(PATH, 'USER_SETTING_ALERT_GET', { farm: farmId }, { schema: alertSettingsAnswerSchema, signal }),
  });

/** USER_SETTING_ALERT_SET: the fields the form shows; the server keeps the others. */
export const saveAlertSettings = (client: ApiClient, farmId: string, values: Partial<AlertSettings>) =>
  client.post(PATH, 'USER_SETTING_ALERT_SET', { farm: farmId, alert_setting: values }, { schema: alertSettingsSetAnswerSchema });

/** USER_SETTING_ALERT_SET_AUTO: one vat's controller settings; answers the vat's return_value. */
export const saveAutoSettings = (client: ApiClient, farmId: string, vatId: string, values: AutoSettings) =>
  client.post(
    PATH,
    'USER_SETTING_ALERT_SET_AUTO',
    { farm: farmId, vat: { _id: vatId, ...values } },
    { schema: autoSettingsSetAnswerSchema },
  );
