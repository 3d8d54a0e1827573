import * as z from 'zod';
import { COLUMN_FIELDS, type ColumnField } from '../../telemetry/range-columns';

/**
 * The columnar form of a range answer's readings (shared/telemetry/range-columns.ts, decision 111),
 * which the web client asks for with `form=columns`; without it the answer keeps the spec's rows
 * (detailData, coolerData).
 */
export const rangeFormField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.enum(['rows', 'columns'], { error: "form must be 'rows' or 'columns'" }).optional(),
);

const column = z.array(z.number().nullable());

export const rangeColumnsSchema = z
  .object({
    /** The first reading's time (UTC ISO 8601). */
    base: z.string(),
    /** Each reading's time as milliseconds after `base`, ascending. */
    t: z.array(z.number().int().min(0)),
    ...(Object.fromEntries(COLUMN_FIELDS.map((f) => [f, column])) as Record<ColumnField, typeof column>),
  })
  .refine((c) => COLUMN_FIELDS.every((f) => c[f].length === c.t.length), 'every column holds one value for each time in t');
