import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { channelFlagsSchema, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from '@shared/alerts/preferences';
import type { ApiClient } from '../../../lib/api-client';

const PATH = '/api/farmer/setting';

/** All 19 rows of farmer §3 Alert setting, each with its email and text flag. */
export const preferencesSchema: z.ZodType<Preferences> = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, channelFlagsSchema])) as Record<PreferenceKey, typeof channelFlagsSchema>,
);

/** USER_SETTING_ALERT_GET_USER: the caller's preferences and the farm's texts this month beside its allowance. */
export const preferencesAnswerSchema = z.object({
  alert_setting: preferencesSchema,
  sms: z.object({ sent: z.number(), total: z.number() }).optional(),
});

export const preferencesQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'user', farmId] as const,
    queryFn: ({ signal }) => client.post(PATH, 'USER_SETTING_ALERT_GET_USER', { farm: farmId }, { schema: preferencesAnswerSchema, signal }),
  });

export const savePreferences = (client: ApiClient, farmId: string, prefs: Preferences) =>
  client.post(PATH, 'USER_SETTING_ALERT_SET_USER', { farm: farmId, alert_setting: prefs }, { schema: z.object({ alert_setting: preferencesSchema }) });
