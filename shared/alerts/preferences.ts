import * as z from 'zod';
import type { NotificationType } from './types';

/** Farmer §3 Alert setting: one row per alert kind, flags email and text, all default true. */
export const PREFERENCE_KEYS = [
  'power_outage',
  'agitator_stopped',
  'milk_warm',
  'milk_warm_plate',
  'milk_cold',
  'milk_volume',
  'milk_online_offline',
  'pro_slow_to_cold_temp',
  'pro_slow_to_cold_period',
  'pro_pick_up',
  'pro_milking_duration',
  'pro_collection_duration',
  'auto_unknown',
  'auto_manual',
  'auto_off',
  'water',
  'effluent',
  'land',
  'weather',
  /** 'Cooling at risk' (105). */
  'cooling_at_risk',
  'vat_full_before_pickup',
  // Alert 702, the vat's drop against the tanker's dockets.
  'vat_tanker_difference',
] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];

/** Email and text (farmer §3); `push` (Web Push, beyond the spec) is on unless turned off: it reaches only browsers the user subscribed. */
export const channelFlagsSchema = z.object({ email: z.boolean(), text: z.boolean(), push: z.boolean().optional() });
type ChannelFlags = z.infer<typeof channelFlagsSchema>;
export type Preferences = Record<PreferenceKey, ChannelFlags>;

export const defaultPreferences = (): Preferences =>
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, { email: true, text: true }])) as Preferences;

/**
 * What USER_SETTING_ALERT_SET_USER accepts: any subset of the keys (an absent key keeps its
 * stored value), each with both flags; unknown keys are refused so a typo cannot pass silently.
 */
export const preferencesInputSchema = z
  .object(Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, channelFlagsSchema.optional()])) as Record<PreferenceKey, z.ZodOptional<typeof channelFlagsSchema>>)
  .strict();
type PreferencesInput = z.infer<typeof preferencesInputSchema>;

export const mergePreferences = (stored: Partial<Preferences> | undefined, input: PreferencesInput): Preferences => {
  const out = { ...defaultPreferences(), ...(stored ?? {}) };
  for (const k of PREFERENCE_KEYS) {
    const v = input[k];
    if (v) out[k] = v;
  }
  return out;
};

/**
 * The preference rows that govern a notification type. A channel is used only when every row
 * listed allows it (SlowCool has two rows, temperature and period; turning either off stops it).
 * Dairy-company types (above 1000) have no row: they always go out, because the spec gives the
 * farmer no switch for them and an acceptance-risk warning must not be lost.
 */
export const PREFERENCE_OF_TYPE: Readonly<Record<NotificationType, readonly PreferenceKey[]>> = {
  101: ['milk_warm'],
  102: ['milk_warm'],
  103: ['milk_warm_plate'],
  104: ['milk_cold'],
  110: ['pro_slow_to_cold_temp', 'pro_slow_to_cold_period'],
  111: ['pro_pick_up'],
  112: ['auto_unknown'],
  113: ['auto_manual'],
  114: ['auto_off'],
  201: ['milk_volume'],
  301: ['power_outage'],
  401: ['agitator_stopped'],
  501: ['milk_online_offline'],
  502: ['milk_online_offline'],
  601: ['pro_milking_duration'],
  701: ['pro_collection_duration'],
  702: ['vat_tanker_difference'],
  1001: [],
  1002: [],
  1003: [],
  1004: [],
  1102: [],
  1201: [],
  105: ['cooling_at_risk'],
  202: ['vat_full_before_pickup'],
};

export const channelsFor = (prefs: Preferences, type: NotificationType): Required<ChannelFlags> => {
  const keys = PREFERENCE_OF_TYPE[type];
  return { email: keys.every((k) => prefs[k].email), text: keys.every((k) => prefs[k].text), push: keys.every((k) => prefs[k].push ?? true) };
};
