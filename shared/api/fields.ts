import * as z from 'zod';

/**
 * The JSON-valued fields, so the API reference (shared/api/openapi.ts) can describe them as JSON
 * text of their schema: zod's own JSON Schema shows only the parsed value.
 */
export const jsonFields = z.registry<{ readonly maxChars: number }>();

/**
 * Field helpers for the wire protocol of spec §7: a form-encoded body carries every value as a
 * string, and some fields (user, item, alert_setting, equipment, products …) hold JSON text.
 * A JSON body may carry the same fields as real values; both are accepted.
 */
export const jsonField = <S extends z.ZodType>(schema: S, name: string, maxChars = JSON_TEXT_MAX) => {
  const field = z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (value.length > maxChars) {
      ctx.addIssue({ code: 'custom', message: `${name} may be at most ${maxChars} characters` });
      return z.NEVER;
    }
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be valid JSON` });
      return z.NEVER;
    }
  }, schema);
  jsonFields.add(field, { maxChars });
  return field;
};

/**
 * Input limits (issue "Action contracts"): every string an action takes has a maximum length, so
 * no input can make the server do unbounded work or store unbounded text.
 */
export const ID_MAX = 128;
/** A JSON-valued field's text: large enough for a whole settings form, small enough to refuse junk. */
const JSON_TEXT_MAX = 20_000;

/** An uploaded file (multipart, lambdas/lib/multipart.ts): the milking-window CSV's 1 MB. */
export const FILE_MAX_BYTES = 1024 * 1024;
export const MSG_FILE_TOO_LARGE = 'The file may be at most 1 MB.';

/** A required id (farm, device, activity …): at most ID_MAX characters. */
export const idField = (name: string) =>
  z.string({ error: `${name} is required` }).trim().min(1, `${name} is required`).max(ID_MAX, `${name} is not valid`);

/** The selected farm's id, sent as `farm` (spec §7). */
export const farmField = idField('farm');

/** A whole number sent as text or as a number. */
export const intField = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`);

/** The widest chart a range is asked for, in pixels: two points a pixel reach the spec's cap of 10,000 a series. */
export const CHART_POINTS_MAX = 5_000;

/**
 * A chart's width in pixels (`points`), which the web app sends with a range: the server then
 * answers at most two readings a pixel (shared/telemetry/display-buckets.ts).
 */
export const chartPointsField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  intField('points').min(1, 'points must be 1 or more').max(CHART_POINTS_MAX, `points may be at most ${CHART_POINTS_MAX}`).optional(),
);

/** A boolean sent as true/false, 1/0 or a real boolean. */
export const boolField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

/** An instant as ISO 8601 with a time (any offset), normalised to UTC …Z. */
export const instantField = (name: string) =>
  z
    .string({ error: `${name} must be a date and time` })
    .max(40, `${name} must be a date and time`)
    .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), `${name} must be a date and time`)
    .transform((s) => new Date(Date.parse(s)).toISOString());
