import { queryOptions } from '@tanstack/react-query';
import type { EscalationSettings } from '@shared/alerts/escalation';
import type { Preferences } from '@shared/alerts/preferences';
import { farmerSettingContracts as c } from '@shared/api/actions/farmer-setting';
import type { ApiClient } from '../../../lib/api-client';

export const preferencesQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'user', farmId] as const,
    queryFn: ({ signal }) => client.call(c.USER_SETTING_ALERT_GET_USER, { farm: farmId }, { signal }),
  });

export const savePreferences = (client: ApiClient, farmId: string, prefs: Preferences, escalation?: EscalationSettings) =>
  client.call(c.USER_SETTING_ALERT_SET_USER, { farm: farmId, alert_setting: prefs, ...(escalation ? { escalation } : {}) });
