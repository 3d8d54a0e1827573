/**
 * Farm alert settings (thresholds) and Vat-Man Auto controller settings (farmer §2.9, §5, §9):
 * defaults, the clamps the form applies on blur, and the validation on save. One implementation:
 * the server applies it to every save (a value the clamp would change, or one failing the
 * save-time check, is a 422 with the message below and nothing is stored); the client will use
 * the same functions on blur and on save.
 */

/**
 * Farmer §9 default alert settings; their keys, in this order, are the threshold fields (§2.9;
 * `milk_slow_peroid` is the spec's spelling).
 */
const ALERT_DEFAULTS = {
  milk_warm_plate: 18,
  milk_cold: 2,
  milk_volume: 80,
  milk_slow_temp: 8,
  milk_slow_peroid: 45,
  milk_duration: 45,
  collection_duration: 1,
  pick_up_alert: 0,
} as const;
export type AlertSettingField = keyof typeof ALERT_DEFAULTS;
export type AlertSettings = Record<AlertSettingField, number>;
export const DEFAULT_ALERT_SETTINGS: AlertSettings = ALERT_DEFAULTS;
export const ALERT_SETTING_FIELDS = Object.keys(ALERT_DEFAULTS) as readonly AlertSettingField[];

/** Farmer §9 default auto settings per vat (rinse = cycle, CIP on = delay: the labels are swapped, §2.9); their keys, in this order, are the controller fields (§2.9). */
const AUTO_DEFAULTS = {
  pro_refrige_level_on_basepad: 100,
  pro_refrige_level_on_sidewall: 5500,
  pro_refrige_temp_on: 5,
  pro_refrige_temp_off: 4,
  pro_refrige_agitator_on_delay: 10,
  pro_refrige_duration_on: 30,
  pro_refrige_duration_off: 30,
  pro_cip_cycle: 3,
  pro_cip_delay: 10,
} as const;
export type AutoSettingField = keyof typeof AUTO_DEFAULTS;
export type AutoSettings = Record<AutoSettingField, number>;
export const DEFAULT_AUTO_SETTINGS: AutoSettings = AUTO_DEFAULTS;
export const AUTO_SETTING_FIELDS = Object.keys(AUTO_DEFAULTS) as readonly AutoSettingField[];

interface Rule {
  readonly min: number;
  readonly max: number;
  /** Values snap to this step (1 = whole numbers). */
  readonly step: number;
  /** The message of a failed save. The first three are the spec's (§5); the rest follow their pattern. */
  readonly message: string;
  /** Save-time check before the range (§5): 'whole' non-negative, or at most 'oneDecimal'. */
  readonly check: 'whole' | 'oneDecimal' | 'number';
}

/** Farmer §5 clamps on blur and checks on save. */
export const ALERT_SETTING_RULES: Readonly<Record<AlertSettingField, Rule>> = {
  milk_warm_plate: { min: 15, max: 30, step: 1, check: 'whole', message: 'Too warm input verification failed!' },
  milk_cold: { min: 0, max: 6, step: 0.5, check: 'oneDecimal', message: 'Too cold input verification failed!' },
  milk_volume: { min: 50, max: 100, step: 1, check: 'whole', message: 'Volume level input verification failed!' },
  milk_slow_temp: { min: 3, max: 10, step: 0.1, check: 'oneDecimal', message: 'Slow to cool temperature input verification failed!' },
  milk_slow_peroid: { min: 20, max: 480, step: 1, check: 'whole', message: 'Slow to cool period input verification failed!' },
  milk_duration: { min: 30, max: 60, step: 1, check: 'whole', message: 'Milking duration input verification failed!' },
  collection_duration: { min: 1, max: 3, step: 1, check: 'whole', message: 'Collection duration input verification failed!' },
  pick_up_alert: { min: 0, max: 30, step: 1, check: 'whole', message: 'Pick up alert input verification failed!' },
};

/** Farmer §5 controller clamps; basepad ≤ sidewall is checked across fields. */
export const AUTO_SETTING_RULES: Readonly<Record<AutoSettingField, Rule>> = {
  pro_refrige_level_on_basepad: { min: 50, max: 5500, step: 1, check: 'whole', message: 'Basepad level input verification failed!' },
  pro_refrige_level_on_sidewall: { min: 100, max: 5500, step: 1, check: 'whole', message: 'Sidewall level input verification failed!' },
  pro_refrige_temp_on: { min: 1, max: 10, step: 0.5, check: 'oneDecimal', message: 'Fridge on temperature input verification failed!' },
  pro_refrige_temp_off: { min: 1, max: 10, step: 0.5, check: 'oneDecimal', message: 'Fridge off temperature input verification failed!' },
  pro_refrige_agitator_on_delay: { min: 0, max: 30, step: 1, check: 'whole', message: 'Manual override delay input verification failed!' },
  pro_refrige_duration_on: { min: 0, max: 59, step: 1, check: 'whole', message: 'Fridge on duration input verification failed!' },
  pro_refrige_duration_off: { min: 0, max: 59, step: 1, check: 'whole', message: 'Fridge off duration input verification failed!' },
  pro_cip_cycle: { min: 0, max: 10, step: 1, check: 'whole', message: 'Rinse duration input verification failed!' },
  pro_cip_delay: { min: 0, max: 30, step: 1, check: 'whole', message: 'CIP on duration input verification failed!' },
};

const snap = (value: number, step: number): number => Math.round(Math.round(value / step) * step * 10) / 10;

/** The value a form field shows after blur: within the range and on the step. */
const clampBy = (rule: Rule, value: number): number => Math.min(rule.max, Math.max(rule.min, snap(value, rule.step)));

export const clampAlertSetting = (field: AlertSettingField, value: number): number => clampBy(ALERT_SETTING_RULES[field], value);

/** Controller clamps; the basepad never goes above the sidewall nor the sidewall below the basepad. */
export const clampAutoSetting = (field: AutoSettingField, value: number, other?: Partial<AutoSettings>): number => {
  const v = clampBy(AUTO_SETTING_RULES[field], value);
  if (field === 'pro_refrige_level_on_basepad' && other?.pro_refrige_level_on_sidewall !== undefined) return Math.min(v, other.pro_refrige_level_on_sidewall);
  if (field === 'pro_refrige_level_on_sidewall' && other?.pro_refrige_level_on_basepad !== undefined) return Math.max(v, other.pro_refrige_level_on_basepad);
  return v;
};

/** A form value as a number, or undefined when it is not one (empty, text, NaN). */
const toNumber = (raw: unknown): number | undefined => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string' || raw.trim() === '' || !/^-?\d+(\.\d+)?$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
};

const passesCheck = (rule: Rule, n: number): boolean => {
  if (n < 0) return false;
  if (rule.check === 'whole') return Number.isInteger(n);
  if (rule.check === 'oneDecimal') return Math.abs(Math.round(n * 10) - n * 10) < 1e-9;
  return true;
};

type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const validateWith = <F extends string>(
  fields: readonly F[],
  rules: Readonly<Record<F, Rule>>,
  input: Readonly<Record<string, unknown>>,
  base: Readonly<Record<F, number>>,
): Validation<Record<F, number>> => {
  const out: Record<F, number> = { ...base };
  // Only the first error is shown (farmer §5), in the form's field order.
  for (const f of fields) {
    if (!Object.hasOwn(input, f) || input[f] === undefined) continue;
    const rule = rules[f];
    const n = toNumber(input[f]);
    if (n === undefined || !passesCheck(rule, n) || clampBy(rule, n) !== n) return { ok: false, message: rule.message };
    out[f] = rule.check === 'oneDecimal' ? Math.round(n * 10) / 10 : n;
  }
  return { ok: true, value: out };
};

/**
 * Save-time validation of the threshold form (farmer §5): an absent field keeps its current
 * value; a present one must pass the §5 check and lie on the clamp (range and step), else the
 * field's message. Too cold is stored with one decimal.
 */
export const validateAlertSettings = (input: Readonly<Record<string, unknown>>, current: AlertSettings = DEFAULT_ALERT_SETTINGS): Validation<AlertSettings> =>
  validateWith(ALERT_SETTING_FIELDS, ALERT_SETTING_RULES, input, current);

export const validateAutoSettings = (input: Readonly<Record<string, unknown>>, current: AutoSettings = DEFAULT_AUTO_SETTINGS): Validation<AutoSettings> => {
  const result = validateWith(AUTO_SETTING_FIELDS, AUTO_SETTING_RULES, input, current);
  if (!result.ok) return result;
  if (result.value.pro_refrige_level_on_basepad > result.value.pro_refrige_level_on_sidewall) {
    return { ok: false, message: Object.hasOwn(input, 'pro_refrige_level_on_basepad') ? AUTO_SETTING_RULES.pro_refrige_level_on_basepad.message : AUTO_SETTING_RULES.pro_refrige_level_on_sidewall.message };
  }
  return result;
};
