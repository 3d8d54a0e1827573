import * as z from 'zod';
import { access, contract } from '../contract';
import { ID_MAX } from '../fields';

/*
 * /api/calibration: calibration's collections and vat config (operator §2 Calibration, §3
 * Collection and Vat config, §7 COLLECTIONS and VAT_CONFIG). Its Apply is VAT_SETTINGS on
 * /api/installer (shared/api/actions/installer.ts), with the same supply and vat number fields.
 */

/** Calibration's supply number and vat number (operator §2: both upper-cased and trimmed; §5 both required). */
export const calibrationSupplyNumber = z
  .string({ error: 'Supply Number is required' })
  .trim()
  .min(1, 'Supply Number is required')
  .max(ID_MAX, 'Supply Number is not valid')
  .transform((s) => s.toUpperCase());
export const calibrationVatNumber = z.coerce.number({ error: 'Vat Number is required' }).int('Vat Number must be 1 to 4').min(1, 'Vat Number must be 1 to 4').max(4, 'Vat Number must be 1 to 4');
/** A vat figure of calibration's Apply (VAT_SETTINGS): required, finite, within [min, max]. */
export const calibrationMeasure = (label: string, max: number, min = 0) =>
  z.coerce.number({ error: `${label} is required` }).refine(Number.isFinite, `${label} is required`).min(min, `${label} must be ${min} or more`).max(max, `${label} must be at most ${max}`);

/** A reading's radar figures at a collection's start or end (operator §3 start_adjust / end_adjust). */
const collectionAdjustSchema = z.object({
  radar_distance: z.number(),
  milk_level: z.number().nullable(),
  milk_volume: z.number().nullable(),
  created_at: z.string(),
});
const collectionPointSchema = z.object({ published_at: z.string(), temp1: z.number().nullable(), milk_volume: z.number().nullable() });

/** A collection with the company's docket (operator §3 Collection (calibration)). */
export const calibrationCollectionSchema = z.object({
  _id: z.string(),
  start: collectionPointSchema,
  end: collectionPointSchema,
  /** null: no reading with a radar distance at that end (an "unadjusted" collection). */
  start_adjust: collectionAdjustSchema.nullable(),
  end_adjust: collectionAdjustSchema.nullable(),
  fonterra_volume: z.number().nullable(),
  fonterra_temperature: z.number().nullable(),
  /** Where the volume came from: the dairy company's docket, or a pickup the farmer entered. */
  volume_source: z.enum(['docket', 'pickup']).nullable(),
  /** The diameter at which this collection equals the company's volume under the stored config. */
  diameter: z.number().nullable(),
  /** Collections without the company's figure start omitted. */
  omit: z.boolean(),
});
export type CalibrationCollection = z.infer<typeof calibrationCollectionSchema>;

export const vatConfigSchema = z.object({
  vat_size: z.number(),
  vat_max_height: z.number(),
  vat_diameter: z.number(),
  wedgeHeight: z.number(),
  vat_volume_offset: z.number(),
  /** The farm's IANA time zone: the collections' times are shown in it (§9). */
  timezone: z.string(),
});

export const CALIBRATION_MESSAGES = {
  noFarm: 'No such farm',
  noVat: (n: number) => `Vat ${n} is not set up on this farm`,
} as const;

export const calibrationContracts = {
  COLLECTIONS: contract({
    path: '/api/calibration',
    type: 'COLLECTIONS',
    input: z.object({ type: z.literal('COLLECTIONS'), amount: z.enum(['RECENT', 'ALL'], { error: 'amount must be RECENT or ALL' }), supplyNumber: calibrationSupplyNumber, vatNumber: calibrationVatNumber }),
    answer: z.array(calibrationCollectionSchema),
    access: access.operator('Installer'),
  }),
  VAT_CONFIG: contract({
    path: '/api/calibration',
    type: 'VAT_CONFIG',
    input: z.object({ type: z.literal('VAT_CONFIG'), supplyNumber: calibrationSupplyNumber, vatNumber: calibrationVatNumber }),
    answer: vatConfigSchema,
    access: access.operator('Installer'),
  }),
} as const;
