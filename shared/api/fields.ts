import { z } from 'zod';

/**
 * Field helpers for the wire protocol of spec §7: a form-encoded body carries every value as a
 * string, and some fields (user, item, alert_setting, equipment, products …) hold JSON text.
 * A JSON body may carry the same fields as real values; both are accepted.
 */
export const jsonField = <S extends z.ZodType>(schema: S, name: string) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be valid JSON` });
      return z.NEVER;
    }
  }, schema);

/** The selected farm's id, sent as `farm` (spec §7). */
export const farmField = z.string({ error: 'farm is required' }).trim().min(1, 'farm is required');

/** A whole number sent as text or as a number. */
export const intField = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`);

/** A boolean sent as true/false, 1/0 or a real boolean. */
export const boolField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);
