import { queryOptions } from '@tanstack/react-query';
import type { Preferences } from '@shared/alerts/preferences';
import { preferencesAnswerSchema, preferencesSetAnswerSchema } from '@shared/api/actions/farmer-setting';
import type { ApiClient } from '../../../lib/api-client';

const PATH = '/api/farmer/setting';

export const preferencesQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'user', farmId] as const,
    queryFn: ({ signal }) => client.post(PATH, 'USER_SETTING_ALERT_GET_USER', { farm: farmId }, { schema: preferencesAnswerSchema, signal }),
  });

export const savePreferences = (client: ApiClient, farmId: string, prefs: Preferences) =>
  client.post(PATH, 'USER_SETTING_ALERT_SET_USER', { farm: farmId, alert_setting: prefs }, { schema: preferencesSetAnswerSchema });
