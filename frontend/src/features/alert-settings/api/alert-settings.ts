import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ALERT_SETTING_FIELDS, AUTO_SETTING_FIELDS, type AlertSettings, type AutoSettings } from '@shared/alerts/settings';
import { packageSchema } from '@shared/entities/farm';
import type { ApiClient } from '../../../lib/api-client';

const PATH = '/api/farmer/setting';

const numbersOf = <F extends string>(fields: readonly F[]) =>
  z.object(Object.fromEntries(fields.map((f) => [f, z.number()])) as Record<F, z.ZodNumber>);

/** The thresholds and controller settings as stored (shared/alerts/settings.ts fields). */
export const alertSettingsSchema: z.ZodType<AlertSettings> = numbersOf(ALERT_SETTING_FIELDS);
export const autoSettingsSchema: z.ZodType<AutoSettings> = numbersOf(AUTO_SETTING_FIELDS);

/** USER_SETTING_ALERT_GET (farmer §7): farm.alert_setting, farm.package, vats with auto_settings. */
export const alertSettingsAnswerSchema = z.object({
  farm: z.object({ _id: z.string(), package: packageSchema, alert_setting: alertSettingsSchema }),
  vats: z.array(z.object({ _id: z.string(), vat_number: z.number(), vat_auto: z.boolean().optional(), auto_settings: autoSettingsSchema })),
});
export type AlertSettingsAnswer = z.infer<typeof alertSettingsAnswerSchema>;
export type VatSettings = AlertSettingsAnswer['vats'][number];

export const alertSettingsQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-setting', 'alert', farmId] as const,
    queryFn: ({ signal }) => client.post(PATH, 'USER_SETTING_ALERT_GET', { farm: farmId }, { schema: alertSettingsAnswerSchema, signal }),
  });

/** USER_SETTING_ALERT_SET: the fields the form shows; the server keeps the others. */
export const saveAlertSettings = (client: ApiClient, farmId: string, values: Partial<AlertSettings>) =>
  client.post(PATH, 'USER_SETTING_ALERT_SET', { farm: farmId, alert_setting: values }, { schema: z.object({ alert_setting: alertSettingsSchema }) });

/** USER_SETTING_ALERT_SET_AUTO: one vat's controller settings; answers the vat's return_value. */
export const saveAutoSettings = (client: ApiClient, farmId: string, vatId: string, values: AutoSettings) =>
  client.post(
    PATH,
    'USER_SETTING_ALERT_SET_AUTO',
    { farm: farmId, vat: { _id: vatId, ...values } },
    { schema: z.object({ return_value: z.union([z.string(), z.number()]), auto_settings: autoSettingsSchema.optional() }) },
  );
