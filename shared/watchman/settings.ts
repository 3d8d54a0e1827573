import * as z from 'zod';
import { WATCHMAN_DEFAULTS } from '../constants';

/** Watchman settings (operator §3) as stored and answered by GET_SETTINGS: the §9 defaults' keys. */
export type WatchmanSettings = { -readonly [K in keyof typeof WATCHMAN_DEFAULTS]: (typeof WATCHMAN_DEFAULTS)[K] extends boolean ? boolean : number };

export const WATCHMAN_SWITCHES = ['on_status', 'auto_turn_fonterra_sync_on', 'auto_turn_fonterra_sync_off'] as const;
type SwitchKey = (typeof WATCHMAN_SWITCHES)[number];
type WatchmanNumberKey = Exclude<keyof WatchmanSettings, SwitchKey>;
export const WATCHMAN_NUMBER_KEYS = (Object.keys(WATCHMAN_DEFAULTS) as (keyof WatchmanSettings)[]).filter(
  (k): k is WatchmanNumberKey => !(WATCHMAN_SWITCHES as readonly string[]).includes(k),
);
/** Operator §5: the temperature probe minimum and maximum may be negative; every other number is >= 0. */
const MAY_BE_NEGATIVE: readonly WatchmanNumberKey[] = ['minimum_temp_probe_temp', 'maximum_temp_probe_temp'];

/** snake_case (stored, GET_SETTINGS) → camelCase (SAVE_SETTINGS, operator §7). */
export const camelOf = (k: string): string => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The field labels of the Settings tab (the spec names the settings only; these read them out). */
export const WATCHMAN_LABELS: Record<keyof WatchmanSettings, string> = {
  on_status: 'On status',
  recent_install_weeks: 'Recent install (weeks)',
  dried_off_days: 'Dried off (days)',
  fault_check_days: 'Fault check (days)',
  minimum_data_points: 'Minimum data points',
  minimum_signal_strength_alone: 'Minimum signal strength alone',
  minimum_signal_strength: 'Minimum signal strength',
  minimum_signal_quality: 'Minimum signal quality',
  maximum_disconnects: 'Maximum disconnects',
  minimum_temp_probe_temp: 'Minimum temp probe temp (°C)',
  maximum_temp_probe_temp: 'Maximum temp probe temp (°C)',
  temp_accuracy_threshold: 'Temp accuracy threshold (°C)',
  minimum_agitator_probe_fault_threshold: 'Minimum agitator probe fault threshold (rpm)',
  maximum_agitator_probe_fault_threshold: 'Maximum agitator probe fault threshold (rpm)',
  auto_turn_fonterra_sync_on: 'Auto turn Fonterra sync on',
  auto_turn_fonterra_sync_off: 'Auto turn Fonterra sync off',
  calibration_days: 'Calibration days',
  matching_pickup_minutes: 'Matching pickup (minutes)',
  minimum_matched_collections: 'Minimum matched collections',
};

/** The message of an empty numeric field (operator §5 "Empty fields show the error state on save"; §8 'Required Field'). */
export const MSG_REQUIRED = 'Required Field';
/**
 * An empty field as the server answers it: the field named before the spec's words, since one
 * answer may list several fields (the form shows MSG_REQUIRED alone, beside the field).
 */
const msgRequired = (k: WatchmanNumberKey) => `${WATCHMAN_LABELS[k]}: ${MSG_REQUIRED}`;
const msgNotNegative = (k: WatchmanNumberKey) => `${WATCHMAN_LABELS[k]} must be 0 or more`;
const msgNotNumber = (k: WatchmanNumberKey) => `${WATCHMAN_LABELS[k]} must be a number`;
const MAX_VALUE = 1_000_000;

/**
 * One numeric setting as typed or sent (operator §5): required, a number, >= 0 unless it is a
 * probe limit. The same schema checks the form before Save Changes and the server's SAVE_SETTINGS.
 */
const numberField = (k: WatchmanNumberKey) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? msgRequired(k) : msgNotNumber(k)) })
      .refine(Number.isFinite, msgNotNumber(k))
      .refine((n) => MAY_BE_NEGATIVE.includes(k) || n >= 0, msgNotNegative(k))
      .refine((n) => Math.abs(n) <= MAX_VALUE, `${WATCHMAN_LABELS[k]} is too large`),
  );
const switchField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')], {
  error: 'must be true or false',
});

/** SAVE_SETTINGS's fields: every setting in camelCase (operator §7). */
export const watchmanFormShape = Object.fromEntries([
  ...WATCHMAN_NUMBER_KEYS.map((k) => [camelOf(k), numberField(k)]),
  ...WATCHMAN_SWITCHES.map((k) => [camelOf(k), switchField]),
]) as Record<string, z.ZodType>;

/** Each minimum with its maximum: a minimum above its maximum would put every reading out of range. */
const LIMIT_PAIRS: readonly (readonly [WatchmanNumberKey, WatchmanNumberKey])[] = [
  ['minimum_temp_probe_temp', 'maximum_temp_probe_temp'],
  ['minimum_agitator_probe_fault_threshold', 'maximum_agitator_probe_fault_threshold'],
];
export const msgMinAboveMax = (min: WatchmanNumberKey, max: WatchmanNumberKey) => `${WATCHMAN_LABELS[min]} must not be above ${WATCHMAN_LABELS[max]}`;

/** The checks across fields of a parsed SAVE_SETTINGS form (the form before Save Changes and the server both run them). */
export const checkLimitPairs = (form: Record<string, unknown>, ctx: z.RefinementCtx): void => {
  for (const [min, max] of LIMIT_PAIRS) {
    const low = form[camelOf(min)];
    const high = form[camelOf(max)];
    if (typeof low === 'number' && typeof high === 'number' && low > high) ctx.addIssue({ code: 'custom', path: [camelOf(min)], message: msgMinAboveMax(min, max) });
  }
};

/** Stored/answered settings (snake_case). */
export const watchmanSettingsSchema = z.object(
  Object.fromEntries([
    ...WATCHMAN_NUMBER_KEYS.map((k) => [k, z.number()]),
    ...WATCHMAN_SWITCHES.map((k) => [k, z.boolean()]),
  ]) as { [K in keyof WatchmanSettings]: WatchmanSettings[K] extends boolean ? z.ZodBoolean : z.ZodNumber },
);

/** The parsed camelCase form as stored settings. */
export const settingsOfForm = (form: Record<string, unknown>): WatchmanSettings =>
  Object.fromEntries((Object.keys(WATCHMAN_DEFAULTS) as (keyof WatchmanSettings)[]).map((k) => [k, form[camelOf(k)]])) as WatchmanSettings;

/** Checks a form as typed (strings): the settings, or each failing field's message by snake_case key. */
export const checkWatchmanForm = (
  form: Record<string, unknown>,
): { ok: true; settings: WatchmanSettings } | { ok: false; errors: Partial<Record<keyof WatchmanSettings, string>> } => {
  const parsed = z.object(watchmanFormShape).superRefine(checkLimitPairs).safeParse(form);
  if (parsed.success) return { ok: true, settings: settingsOfForm(parsed.data) };
  const errors: Partial<Record<keyof WatchmanSettings, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = (Object.keys(WATCHMAN_DEFAULTS) as (keyof WatchmanSettings)[]).find((k) => camelOf(k) === issue.path[0]);
    if (key && !errors[key]) errors[key] = (WATCHMAN_NUMBER_KEYS as readonly string[]).includes(key) && issue.message === msgRequired(key as WatchmanNumberKey) ? MSG_REQUIRED : issue.message;
  }
  return { ok: false, errors };
};

/** Stored settings over the defaults (a setting added later reads its default). */
export const withDefaults = (stored: Partial<WatchmanSettings> | undefined): WatchmanSettings => ({ ...WATCHMAN_DEFAULTS, ...(stored ?? {}) });
