import { queryOptions } from '@tanstack/react-query';
import { farmerSettingContracts, type AlertSettingsAnswer } from '@shared/api/actions/farmer-setting';
import type { ApiClient } from '../api-client';

export type VatSettings = AlertSettingsAnswer['vats'][number];

/** USER_SETTING_ALERT_GET (farmer §2.9): the farm's thresholds and each vat's controller settings (Settings tab, Auto tile). */
export const alertSettingsQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'alert', farmId] as const,
    queryFn: ({ signal }) => client.call(farmerSettingContracts.USER_SETTING_ALERT_GET, { farm: farmId }, { signal }),
  });
