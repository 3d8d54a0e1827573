import { z } from 'zod';
import { packageSchema } from '../../entities/farm';
import { INSTALL_LOG_PAGE, installLogEntrySchema, LOG_TYPES } from '../../entities/install';
import { access, contract } from '../contract';
import { boolField, ID_MAX, intField } from '../fields';

/*
 * /api/installer (operator spec §2 installer tools, §5 rules, §7): Installer and Admin only (§6).
 * The §5 rules the screens check are checked here too, so a hand-made request cannot store what
 * the screens would refuse.
 */

/** §8 'Config search with both fields empty'. */
export const FILL_ONE = 'Please fill ONE of these fields';
/** §8 'Empty required input after failed submit'. */
export const REQUIRED_FIELD = 'Required Field';

const SHORT = 40;
const optionalText = (name: string, max = 100) => z.string({ error: `${name} must be text` }).trim().max(max, `${name} may be at most ${max} characters`).optional().default('');

/** An IMEI: 15 digits. Blank is allowed where the other search field is used. */
export const IMEI_PATTERN = /^\d{15}$/;
const imeiText = z.string({ error: 'imei must be 15 digits' }).trim().max(SHORT, 'imei must be 15 digits');
const imeiField = imeiText.refine((s) => IMEI_PATTERN.test(s), 'imei must be 15 digits');
/** A supply number, upper-cased (§2 'Supply Number (upper-cased, e.g. FON12345)'). */
const supplyText = z
  .string({ error: 'supplyNumber must be letters and digits' })
  .trim()
  .max(SHORT, 'supplyNumber may be at most 40 characters')
  .transform((s) => s.toUpperCase())
  .refine((s) => s === '' || /^[A-Z0-9]+$/.test(s), 'supplyNumber must be letters and digits');
const supplyField = supplyText.refine((s) => s !== '', 'supplyNumber is required');
const idText = (name: string) => z.string({ error: `${name} is required` }).trim().min(1, `${name} is required`).max(ID_MAX, `${name} is not valid`);

const numberText = (name: string) => z.union([z.number(), z.string().trim().max(SHORT, `${name} must be a number`)], { error: `${name} must be a number` });
const inRange = (name: string, min: number, max: number) =>
  z.number().refine(Number.isFinite, `${name} must be a number`).min(min, `${name} must be ${min} or more`).max(max, `${name} may be at most ${max}`);
const toNumber = (name: string) => (v: string | number, ctx: z.RefinementCtx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (Number.isNaN(n)) {
    ctx.addIssue({ code: 'custom', message: `${name} must be a number` });
    return z.NEVER;
  }
  return n;
};
/** A number the installer types: required, within [min, max] (§5 'only values >= 0'). */
const measure = (name: string, min: number, max: number) =>
  numberText(name)
    .refine((v) => v !== '', `${name}: ${REQUIRED_FIELD}`)
    .transform(toNumber(name))
    .pipe(inRange(name, min, max));
/** The same, optional: blank or absent is not sent. */
const optionalMeasure = (name: string, min: number, max: number) =>
  numberText(name)
    .optional()
    .transform((v, ctx) => (v === '' || v === undefined ? undefined : toNumber(name)(v, ctx)))
    .pipe(inRange(name, min, max).optional());

/** Vat sizes the server accepts (the table's span with room for manual vats). */
export const MAX_DIAMETER_MM = 10_000;
export const MAX_HEIGHT_MM = 10_000;
export const MAX_VOLUME_L = 100_000;

export const installerActions = {
  DEVICE_SEARCH: z
    .object({
      type: z.literal('DEVICE_SEARCH'),
      imei: imeiText.optional().default(''),
      supplyNumber: supplyText.optional().default(''),
    })
    .refine((f) => (f.imei === '') !== (f.supplyNumber === ''), FILL_ONE)
    .refine((f) => f.imei === '' || IMEI_PATTERN.test(f.imei), 'imei must be 15 digits'),
  PARTICLE_CONFIG: z.object({
    type: z.literal('PARTICLE_CONFIG'),
    /** How the unit was found ('farm' by supply number, 'imei' by IMEI): the other field was read-only. */
    key: z.enum(['farm', 'imei'], { error: "key must be 'farm' or 'imei'" }),
    particleID: idText('particleID'),
    imei: imeiField,
    farmID: idText('farmID'),
    supplyNumber: supplyField,
    productVariant: z.string({ error: 'productVariant must be a Vat-Man package' }).max(SHORT, 'productVariant must be a Vat-Man package').pipe(packageSchema),
    lowConnectivity: boolField.default(false),
  }),
  VAT_CONFIG: z
    .object({
      type: z.literal('VAT_CONFIG'),
      particleID: idText('particleID'),
      farmID: idText('farmID'),
      /** Blank for a vat being added (§2 'Add Vat n'). */
      deviceID: z.string({ error: 'deviceID is not valid' }).trim().max(ID_MAX, 'deviceID is not valid').optional().default(''),
      supplyNumber: supplyField,
      vatNumber: intField('vatNumber').min(1, 'vatNumber must be 1 to 4').max(4, 'vatNumber must be 1 to 4'),
      diameter: measure('diameter', 0, MAX_DIAMETER_MM),
      volume: measure('volume', 0, MAX_VOLUME_L),
      height: measure('height', 0, MAX_HEIGHT_MM),
      manufacturer: optionalText('manufacturer'),
      serial: optionalText('serial'),
      radarSerial: z.string({ error: `radarSerial: ${REQUIRED_FIELD}` }).trim().min(1, `radarSerial: ${REQUIRED_FIELD}`).max(100, 'radarSerial may be at most 100 characters'),
      auto: boolField.default(false),
      wedgeHeight: optionalMeasure('wedgeHeight', 0, MAX_HEIGHT_MM),
      oclock: optionalMeasure('oclock', 0, 12).refine((v) => v === undefined || Number.isInteger(v), 'oclock must be a whole hour'),
    })
    .refine((f) => (f.wedgeHeight === undefined) !== (f.oclock === undefined), 'Send wedgeHeight (manual radar) or oclock, not both'),
  INSTALLS: z.object({
    type: z.literal('INSTALLS'),
    supplyNumber: supplyText.optional().default(''),
    logType: z.enum(LOG_TYPES, { error: `logType must be one of ${LOG_TYPES.join(', ')}` }).default('All'),
    page: intField('page').min(0, 'page must be 0 or more').max(100_000, 'page is too large').default(0),
    pageSize: intField('pageSize').min(1, `pageSize must be 1 to ${INSTALL_LOG_PAGE}`).max(INSTALL_LOG_PAGE, `pageSize must be 1 to ${INSTALL_LOG_PAGE}`).default(INSTALL_LOG_PAGE),
  }),
} as const;

// ---- Answers --------------------------------------------------------------------------------

/** A vat device as the installer sees it (operator §3 'Vat device (installer)'). */
export const vatDeviceSchema = z.object({
  _id: z.string(),
  vat_number: z.number().int().min(1).max(4),
  vat_max_height: z.number(),
  oclock: z.number().nullable(),
  radar_serial: z.string(),
  vat_manufacturer: z.string(),
  vat_serial: z.string(),
  wedgeHeight: z.number(),
  vat_diameter: z.number(),
  vat_size: z.number(),
  vat_auto: z.boolean(),
});
export type VatDevice = z.infer<typeof vatDeviceSchema>;

/** The installer's view of a farm (operator §3). */
export const installerFarmSchema = z.object({ _id: z.string(), fonterra_id: z.string(), package: packageSchema, lowConnectivity: z.boolean() });

/** The controller unit (§3 'Particle (installer)'): its thing name and IMEI. */
export const particleSchema = z.object({ _id: z.string(), body: z.object({ imei: z.string() }) });

export const deviceSearchAnswerSchema = z.object({
  /** Null: §8 'Farm/Particle Not Found'. */
  particle: particleSchema.nullable(),
  farm: installerFarmSchema.nullable(),
  /** Empty with a particle: §8 'Vats Not Setup For This Particle'. */
  devices: z.array(vatDeviceSchema),
  key: z.enum(['farm', 'imei']),
});
export type DeviceSearchAnswer = z.infer<typeof deviceSearchAnswerSchema>;

// ---- Contracts ------------------------------------------------------------------------------

const PATH = '/api/installer';
const installers = access.operator('Installer');

export const installerContracts = {
  DEVICE_SEARCH: contract({ path: PATH, type: 'DEVICE_SEARCH', input: installerActions.DEVICE_SEARCH, answer: deviceSearchAnswerSchema, access: installers }),
  PARTICLE_CONFIG: contract({ path: PATH, type: 'PARTICLE_CONFIG', input: installerActions.PARTICLE_CONFIG, answer: z.object({ message: z.string() }), access: installers }),
  VAT_CONFIG: contract({
    path: PATH,
    type: 'VAT_CONFIG',
    input: installerActions.VAT_CONFIG,
    answer: z.object({ success: z.boolean(), result: z.string(), device: vatDeviceSchema }),
    access: installers,
  }),
  INSTALLS: contract({
    path: PATH,
    type: 'INSTALLS',
    input: installerActions.INSTALLS,
    answer: z.object({ count: z.number().int(), installs: z.array(installLogEntrySchema) }),
    access: installers,
  }),
} as const;
