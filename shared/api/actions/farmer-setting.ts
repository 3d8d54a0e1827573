import { z } from 'zod';
import { preferencesInputSchema } from '../../alerts/preferences';
import { farmField, jsonField } from '../fields';

/** Form values arrive as text or numbers; the §5 checks (shared/alerts/settings.ts) judge them. */
const settingsObject = z.record(z.string(), z.union([z.string(), z.number(), z.null()]), { error: 'alert_setting must be an object' });

/** /api/farmer/setting (farmer §7, §2.9, §2.11). */
export const farmerSettingActions = {
  USER_SETTING_ALERT_GET: z.object({ type: z.literal('USER_SETTING_ALERT_GET'), farm: farmField }),
  USER_SETTING_ALERT_SET: z.object({ type: z.literal('USER_SETTING_ALERT_SET'), farm: farmField, alert_setting: jsonField(settingsObject, 'alert_setting') }),
  USER_SETTING_ALERT_SET_AUTO: z.object({
    type: z.literal('USER_SETTING_ALERT_SET_AUTO'),
    farm: farmField,
    vat: jsonField(z.object({ _id: z.string({ error: 'vat._id is required' }).min(1, 'vat._id is required') }).catchall(z.union([z.string(), z.number(), z.null(), z.boolean()])), 'vat'),
  }),
  USER_SETTING_ALERT_GET_USER: z.object({ type: z.literal('USER_SETTING_ALERT_GET_USER'), farm: farmField }),
  USER_SETTING_ALERT_SET_USER: z.object({
    type: z.literal('USER_SETTING_ALERT_SET_USER'),
    farm: farmField,
    alert_setting: jsonField(preferencesInputSchema, 'alert_setting'),
  }),
} as const;

/** Controller settings are for Vat-Man Auto only (farmer §6). */
export const AUTO_ONLY_MESSAGE = 'Controller settings are for Vat-Man Auto farms only.';
