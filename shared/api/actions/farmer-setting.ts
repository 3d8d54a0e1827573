import * as z from 'zod';
import { channelFlagsSchema, PREFERENCE_KEYS, preferencesInputSchema, type PreferenceKey, type Preferences } from '../../alerts/preferences';
import { escalationSettingsSchema } from '../../alerts/escalation';
import { ALERT_SETTING_FIELDS, AUTO_SETTING_FIELDS, type AlertSettings, type AutoSettings } from '../../alerts/settings';
import { packageSchema } from '../../entities/farm';
import { access, contract } from '../contract';
import { farmField, idField, jsonField } from '../fields';

/** Form values arrive as text or numbers; the §5 checks (shared/alerts/settings.ts) judge them. */
const settingsObject = z.record(z.string().max(64), z.union([z.string().max(64), z.number(), z.null()]), { error: 'alert_setting must be an object' });

/** /api/farmer/setting (farmer §7, §2.9, §2.11). */
const farmerSettingInputs = {
  USER_SETTING_ALERT_GET: z.object({ type: z.literal('USER_SETTING_ALERT_GET'), farm: farmField }),
  USER_SETTING_ALERT_SET: z.object({ type: z.literal('USER_SETTING_ALERT_SET'), farm: farmField, alert_setting: jsonField(settingsObject, 'alert_setting') }),
  USER_SETTING_ALERT_SET_AUTO: z.object({
    type: z.literal('USER_SETTING_ALERT_SET_AUTO'),
    farm: farmField,
    vat: jsonField(z.object({ _id: idField('vat._id') }).catchall(z.union([z.string().max(64), z.number(), z.null(), z.boolean()])), 'vat'),
  }),
  USER_SETTING_ALERT_GET_USER: z.object({ type: z.literal('USER_SETTING_ALERT_GET_USER'), farm: farmField }),
  USER_SETTING_ALERT_SET_USER: z.object({
    type: z.literal('USER_SETTING_ALERT_SET_USER'),
    farm: farmField,
    alert_setting: jsonField(preferencesInputSchema, 'alert_setting'),
    /** The caller's escalation preference (minutes, null for off; the organization opt-in); absent keeps it. */
    escalation: jsonField(escalationSettingsSchema, 'escalation').optional(),
  }),
} as const;

/** Controller settings are for Vat-Man Auto only (farmer §6). */
export const AUTO_ONLY_MESSAGE = 'Controller settings are for Vat-Man Auto farms only.';

// ---- Answers (the server's types; the client parses with them) ------------------------------

const numbersOf = <F extends string>(fields: readonly F[]) => z.object(Object.fromEntries(fields.map((f) => [f, z.number()])) as Record<F, z.ZodNumber>);

/** A farm's thresholds and a vat's controller settings as stored (shared/alerts/settings.ts fields). */
const alertSettingsSchema: z.ZodType<AlertSettings> = numbersOf(ALERT_SETTING_FIELDS);
const autoSettingsSchema: z.ZodType<AutoSettings> = numbersOf(AUTO_SETTING_FIELDS);

/** USER_SETTING_ALERT_GET (farmer §7): farm.alert_setting, farm.package, the vats with their auto_settings. */
export const alertSettingsAnswerSchema = z.object({
  farm: z.object({ _id: z.string(), package: packageSchema, alert_setting: alertSettingsSchema }),
  vats: z.array(z.object({ _id: z.string(), vat_number: z.number(), vat_auto: z.boolean().optional(), auto_settings: autoSettingsSchema })),
});
export type AlertSettingsAnswer = z.infer<typeof alertSettingsAnswerSchema>;

/** USER_SETTING_ALERT_SET: the thresholds as stored after the checks and clamps. */
export const alertSettingsSetAnswerSchema = z.object({ alert_setting: alertSettingsSchema });
export type AlertSettingsSetAnswer = z.infer<typeof alertSettingsSetAnswerSchema>;

/** USER_SETTING_ALERT_SET_AUTO: the vat's answer (shown as 'Success: {return_value}') and the stored settings. */
const autoSettingsSetAnswerSchema = z.object({ return_value: z.union([z.string(), z.number()]), auto_settings: autoSettingsSchema.optional() });
export type AutoSettingsSetAnswer = z.infer<typeof autoSettingsSetAnswerSchema>;

/** All 19 rows of farmer §3 Alert setting and the ones added beyond it, each with its email and text flag. */
const preferencesSchema: z.ZodType<Preferences> = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, channelFlagsSchema])) as Record<PreferenceKey, typeof channelFlagsSchema>,
);

/** USER_SETTING_ALERT_GET_USER: the caller's preferences and the farm's texts this month beside its allowance. */
export const preferencesAnswerSchema = z.object({
  alert_setting: preferencesSchema,
  escalation: escalationSettingsSchema.optional(),
  sms: z.object({ sent: z.number(), total: z.number() }).optional(),
});
export type PreferencesAnswer = z.infer<typeof preferencesAnswerSchema>;

/** USER_SETTING_ALERT_SET_USER: the preferences as stored. */
export const preferencesSetAnswerSchema = z.object({ alert_setting: preferencesSchema, escalation: escalationSettingsSchema.optional() });
export type PreferencesSetAnswer = z.infer<typeof preferencesSetAnswerSchema>;

// ---- Contracts -------------------------------------------------------------------------------

const PATH = '/api/farmer/setting';
const farmMember = access.farmMember();

/** /api/farmer/setting: the farm's thresholds and controllers, the caller's own preferences (farmer §6). */
export const farmerSettingContracts = {
  USER_SETTING_ALERT_GET: contract({ path: PATH, type: 'USER_SETTING_ALERT_GET', input: farmerSettingInputs.USER_SETTING_ALERT_GET, answer: alertSettingsAnswerSchema, access: farmMember }),
  USER_SETTING_ALERT_SET: contract({ path: PATH, type: 'USER_SETTING_ALERT_SET', input: farmerSettingInputs.USER_SETTING_ALERT_SET, answer: alertSettingsSetAnswerSchema, access: farmMember }),
  USER_SETTING_ALERT_SET_AUTO: contract({ path: PATH, type: 'USER_SETTING_ALERT_SET_AUTO', input: farmerSettingInputs.USER_SETTING_ALERT_SET_AUTO, answer: autoSettingsSetAnswerSchema, access: farmMember }),
  USER_SETTING_ALERT_GET_USER: contract({ path: PATH, type: 'USER_SETTING_ALERT_GET_USER', input: farmerSettingInputs.USER_SETTING_ALERT_GET_USER, answer: preferencesAnswerSchema, access: farmMember }),
  USER_SETTING_ALERT_SET_USER: contract({ path: PATH, type: 'USER_SETTING_ALERT_SET_USER', input: farmerSettingInputs.USER_SETTING_ALERT_SET_USER, answer: preferencesSetAnswerSchema, access: farmMember }),
} as const;
