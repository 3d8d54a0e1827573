import * as z from 'zod';
import { collectionEventSchema, DAIRY_EVENT_KINDS, milkingEventSchema, vatExceptionSchema } from '../../dairy-company/payloads';
import { access, contract } from '../contract';
import { farmField, ID_MAX } from '../fields';

/*
 * The dairy-company link: the farmer's event log (farmer §2.15, §7 FARMER_LOG_FONTERRA)
 * and calibration (operator §2 Calibration, §3 Collection and Vat config, §7 /api/calibration
 * COLLECTIONS and VAT_CONFIG, /api/installer VAT_SETTINGS, §8 results).
 */

/** One try at sending a report and the gateway's answer: its HTTP status, 0 when none came (a retried status or 0: tried again). */
const dairyAttemptSchema = z.object({ at: z.string(), status: z.number().int(), message: z.string() });

/**
 * A report's request as the log shows it: the body as sent, read back as JSON. The one-decimal
 * temperatures travel as bare number tokens (`gatewayJson`), so here they are numbers.
 */
const collectionEventSent = collectionEventSchema.extend({
  AverageTemperatureAtCollection: z.number(),
  VatCollectionDetails: z.array(collectionEventSchema.shape.VatCollectionDetails.element.extend({ VatTemperature: z.number() })).min(1),
});
const dairyRequestSchema = z.union([milkingEventSchema, collectionEventSent, vatExceptionSchema]);

/** A report to the dairy company as the log shows it: the request as sent and every answer. */
const dairyReportSchema = z.object({
  /** The event's idempotency key (what DAIRY_EVENT_RESEND names). */
  key: z.string(),
  kind: z.enum(DAIRY_EVENT_KINDS),
  event_at: z.string(),
  state: z.enum(['pending', 'sent', 'refused']),
  request: dairyRequestSchema,
  /** The last tries (at most 10), oldest first. */
  attempts: z.array(dairyAttemptSchema),
  /** Every try made, including those no longer listed. */
  attempt_count: z.number().int(),
});
export type DairyReport = z.infer<typeof dairyReportSchema>;

/** Per vat: `activity` the last milking and collection reports, `alert` the last exception report (each absent when none). */
export const vatLogSchema = z.object({ vat: z.number().int(), activity: z.array(dairyReportSchema), alert: z.array(dairyReportSchema) });
export type VatLog = z.infer<typeof vatLogSchema>;

/** Calibration's supply number and vat number (operator §2: both upper-cased and trimmed; §5 both required). */
const supplyNumber = z
  .string({ error: 'Supply Number is required' })
  .trim()
  .min(1, 'Supply Number is required')
  .max(ID_MAX, 'Supply Number is not valid')
  .transform((s) => s.toUpperCase());
const vatNumber = z.coerce.number({ error: 'Vat Number is required' }).int('Vat Number must be 1 to 4').min(1, 'Vat Number must be 1 to 4').max(4, 'Vat Number must be 1 to 4');
const measure = (label: string, max: number, min = 0) =>
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

/** Operator §8 Apply vat settings. */
const VAT_SETTINGS_RESULTS = {
  success: 'Success',
  connected: 'Fail, particle is connected.',
  notConnected: 'Fail, particle is not connected.',
} as const;
export const vatSettingsResultText = (a: { return_value: number; connected: boolean }): string =>
  a.return_value === 1 ? VAT_SETTINGS_RESULTS.success : a.connected ? VAT_SETTINGS_RESULTS.connected : VAT_SETTINGS_RESULTS.notConnected;

export const CALIBRATION_MESSAGES = {
  noFarm: 'No such farm',
  noVat: (n: number) => `Vat ${n} is not set up on this farm`,
} as const;

export const dairyCompanyContracts = {
  FARMER_LOG_FONTERRA: contract({
    path: '/api/farmer/log/fonterra',
    type: 'FARMER_LOG_FONTERRA',
    input: z.object({ type: z.literal('FARMER_LOG_FONTERRA'), farm: farmField }),
    answer: z.array(vatLogSchema),
    access: access.farmMember(),
  }),
  /**
   * Sends a farm's refused reports (or the one named by `key`) to the dairy company again: they go
   * back in the queue, due now, with their tries kept. The provider's Admin only (after fixing what
   * the company refused: a farm id it did not know, a token). Answers the keys queued again.
   */
  DAIRY_EVENT_RESEND: contract({
    path: '/api/farmer/log/fonterra',
    type: 'DAIRY_EVENT_RESEND',
    input: z.object({ type: z.literal('DAIRY_EVENT_RESEND'), farm: farmField, key: z.string().trim().max(200, 'key is not valid').optional() }),
    answer: z.object({ requeued: z.array(z.string()) }),
    access: access.admin(),
  }),
  COLLECTIONS: contract({
    path: '/api/calibration',
    type: 'COLLECTIONS',
    input: z.object({ type: z.literal('COLLECTIONS'), amount: z.enum(['RECENT', 'ALL'], { error: 'amount must be RECENT or ALL' }), supplyNumber, vatNumber }),
    answer: z.array(calibrationCollectionSchema),
    access: access.operator('Installer'),
  }),
  VAT_CONFIG: contract({
    path: '/api/calibration',
    type: 'VAT_CONFIG',
    input: z.object({ type: z.literal('VAT_CONFIG'), supplyNumber, vatNumber }),
    answer: vatConfigSchema,
    access: access.operator('Installer'),
  }),
  VAT_SETTINGS: contract({
    path: '/api/installer',
    type: 'VAT_SETTINGS',
    input: z.object({
      type: z.literal('VAT_SETTINGS'),
      supplyNumber,
      vatNumber,
      vatSize: measure('Vat Size', 100_000, 1),
      height: measure('Height', 10_000, 1),
      diameter: measure('Diameter', 10_000, 1),
      wedgeHeight: measure('Wedge Height', 10_000),
      volumeOffset: measure('Volume Offset', 10_000, -10_000),
    }),
    answer: z.object({ return_value: z.number().int(), connected: z.boolean() }),
    access: access.operator('Installer'),
  }),
} as const;
