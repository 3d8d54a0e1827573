import * as z from 'zod';
import { packageSchema, supplierSchema, SUPPLIER_CODES } from '../../entities/farm';
import { INSTALL_LOG_PAGE, installLogEntrySchema, LOG_TYPES } from '../../entities/install';
import { access, contract } from '../contract';
import { boolField, ID_MAX, intField } from '../fields';
import { calibrationMeasure, calibrationSupplyNumber, calibrationVatNumber } from './calibration';

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
const IMEI_PATTERN = /^\d{15}$/;
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
/** Check Install's supply number (§5): required ('Required Field'), the first space removed, upper-cased. */
export const checkSupplyNumber = (raw: string): string => raw.trim().replace(' ', '').toUpperCase();
const checkSupplyField = z
  .string({ error: `supplyNumber: ${REQUIRED_FIELD}` })
  .max(SHORT, 'supplyNumber may be at most 40 characters')
  .transform(checkSupplyNumber)
  .refine((s) => s !== '', `supplyNumber: ${REQUIRED_FIELD}`)
  .refine((s) => /^[A-Z0-9]+$/.test(s), 'supplyNumber must be letters and digits');
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
const MAX_DIAMETER_MM = 10_000;
const MAX_HEIGHT_MM = 10_000;
const MAX_VOLUME_L = 100_000;

/** New install (§5, §9): 1-4 vats, 0-4 displays; the New Install O'Clock choices. */
export const MAX_VATS = 4;
export const MAX_DISPLAYS = 4;
export const NEW_INSTALL_OCLOCK = [12, 10, 8, 6, 4, 2] as const;
export const DEFAULT_TIME_ZONE = 'Pacific/Auckland';

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-NZ', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** One vat of a new install as sent (vat<n>Diameter …): required up to numVats, ignored beyond. */
const newInstallVat = (n: number) => ({
  [`vat${n}Diameter`]: optionalMeasure(`vat${n}Diameter`, 0, MAX_DIAMETER_MM),
  [`vat${n}Volume`]: optionalMeasure(`vat${n}Volume`, 0, MAX_VOLUME_L),
  [`vat${n}Height`]: optionalMeasure(`vat${n}Height`, 0, MAX_HEIGHT_MM),
  [`vat${n}Manufacturer`]: optionalText(`vat${n}Manufacturer`),
  [`vat${n}Serial`]: optionalText(`vat${n}Serial`),
  [`vat${n}OClock`]: optionalMeasure(`vat${n}OClock`, 0, 12),
  [`vat${n}RadarSerial`]: optionalText(`vat${n}RadarSerial`),
  [`vat${n}Auto`]: boolField.default(false),
});

/** A new install's vat, read back from the flat fields. */
export interface NewInstallVat {
  readonly vatNumber: number;
  readonly diameter: number;
  readonly volume: number;
  readonly height: number;
  readonly manufacturer: string;
  readonly serial: string;
  readonly oclock: number | undefined;
  readonly radarSerial: string;
  readonly auto: boolean;
}
export const vatsOfInstall = (f: Record<string, unknown> & { numVats: number }): NewInstallVat[] =>
  Array.from({ length: f.numVats }, (_, i) => {
    const n = i + 1;
    return {
      vatNumber: n,
      diameter: f[`vat${n}Diameter`] as number,
      volume: f[`vat${n}Volume`] as number,
      height: f[`vat${n}Height`] as number,
      manufacturer: (f[`vat${n}Manufacturer`] as string | undefined) ?? '',
      serial: (f[`vat${n}Serial`] as string | undefined) ?? '',
      oclock: f[`vat${n}OClock`] as number | undefined,
      radarSerial: f[`vat${n}RadarSerial`] as string,
      auto: (f[`vat${n}Auto`] as boolean | undefined) ?? false,
    };
  });

/**
 * A submission's id (the web app makes one per form submission and sends it again on a retry): the
 * same id resumes or answers the same install. Absent, each call is a submission of its own.
 */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;
const requestIdField = z
  .string({ error: 'requestId must be 8 to 64 letters, digits or dashes' })
  .trim()
  .regex(REQUEST_ID_PATTERN, 'requestId must be 8 to 64 letters, digits or dashes')
  .optional();

const installerInputs = {
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
  NEW_INSTALL: z
    .object({
      type: z.literal('NEW_INSTALL'),
      requestId: requestIdField,
      imei: imeiField,
      dairySupplier: z.string({ error: `dairySupplier must be one of ${SUPPLIER_CODES.join(', ')}` }).max(SHORT, `dairySupplier must be one of ${SUPPLIER_CODES.join(', ')}`).pipe(supplierSchema),
      supplyNumber: supplyField,
      productVariant: z.string({ error: 'productVariant must be a Vat-Man package' }).max(SHORT, 'productVariant must be a Vat-Man package').pipe(packageSchema),
      numVats: intField('numVats').min(1, `numVats must be 1 to ${MAX_VATS}`).max(MAX_VATS, `numVats must be 1 to ${MAX_VATS}`),
      numDisplays: intField('numDisplays').min(0, `numDisplays must be 0 to ${MAX_DISPLAYS}`).max(MAX_DISPLAYS, `numDisplays must be 0 to ${MAX_DISPLAYS}`).default(0),
      lowConnectivity: boolField.default(false),
      timezone: z.string({ error: 'timezone must be a time zone' }).trim().max(SHORT, 'timezone must be a time zone').default(DEFAULT_TIME_ZONE).refine(isTimeZone, 'timezone must be a time zone'),
      ...newInstallVat(1),
      ...newInstallVat(2),
      ...newInstallVat(3),
      ...newInstallVat(4),
    })
    .superRefine((f, ctx) => {
      const fields = f as unknown as Record<string, unknown>;
      for (let n = 1; n <= f.numVats; n += 1) {
        for (const name of [`vat${n}Diameter`, `vat${n}Volume`, `vat${n}Height`, `vat${n}RadarSerial`]) {
          if (fields[name] === undefined || fields[name] === '') ctx.addIssue({ code: 'custom', path: [name], message: `${name}: ${REQUIRED_FIELD}` });
        }
        const oclock = fields[`vat${n}OClock`];
        if (oclock !== undefined && !Number.isInteger(oclock)) ctx.addIssue({ code: 'custom', path: [`vat${n}OClock`], message: `vat${n}OClock must be a whole hour` });
      }
    }),
  INSTALLS: z.object({
    type: z.literal('INSTALLS'),
    supplyNumber: supplyText.optional().default(''),
    logType: z.enum(LOG_TYPES, { error: `logType must be one of ${LOG_TYPES.join(', ')}` }).default('All'),
    page: intField('page').min(0, 'page must be 0 or more').max(100_000, 'page is too large').default(0),
    pageSize: intField('pageSize').min(1, `pageSize must be 1 to ${INSTALL_LOG_PAGE}`).max(INSTALL_LOG_PAGE, `pageSize must be 1 to ${INSTALL_LOG_PAGE}`).default(INSTALL_LOG_PAGE),
  }),
  /** A new key pair for the farm's unit, the old certificate revoked (a lost New Install answer, a lost or leaked key). */
  REISSUE_CERTIFICATE: z.object({ type: z.literal('REISSUE_CERTIFICATE'), supplyNumber: checkSupplyField, requestId: requestIdField }),
  CHECK_ONLINE: z.object({ type: z.literal('CHECK_ONLINE'), supplyNumber: checkSupplyField }),
  CHECK_DIAGNOSTICS: z.object({ type: z.literal('CHECK_DIAGNOSTICS'), supplyNumber: checkSupplyField }),
  CHECK_SENSORBOARDS: z.object({ type: z.literal('CHECK_SENSORBOARDS'), supplyNumber: checkSupplyField }),
} as const;

// ---- Answers --------------------------------------------------------------------------------

/** A vat device as the installer sees it (operator §3 'Vat device (installer)'). */
const vatDeviceSchema = z.object({
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
const installerFarmSchema = z.object({ _id: z.string(), fonterra_id: z.string(), package: packageSchema, lowConnectivity: z.boolean() });

/** The controller unit (§3 'Particle (installer)'): its thing name and IMEI. */
const particleSchema = z.object({ _id: z.string(), body: z.object({ imei: z.string() }) });

const deviceSearchAnswerSchema = z.object({
  /** Null: §8 'Farm/Particle Not Found'. */
  particle: particleSchema.nullable(),
  farm: installerFarmSchema.nullable(),
  /** Empty with a particle: §8 'Vats Not Setup For This Particle'. */
  devices: z.array(vatDeviceSchema),
  key: z.enum(['farm', 'imei']),
});
export type DeviceSearchAnswer = z.infer<typeof deviceSearchAnswerSchema>;

/** What a unit needs to connect (NEW_INSTALL's download): its thing name, certificate, key, endpoint and CA. */
const unitDownloadSchema = z.object({
  thingName: z.string(),
  certificateId: z.string(),
  certificatePem: z.string(),
  privateKey: z.string(),
  /** The account's IoT data endpoint (DescribeEndpoint iot:Data-ATS); port 8883. */
  endpoint: z.string(),
  /** The CA the unit trusts for the endpoint: the local CA locally; in AWS absent (Amazon Root CA 1). */
  rootCaPem: z.string().optional(),
});
export type UnitDownload = z.infer<typeof unitDownloadSchema>;

/** §7 CHECK_*: the server's answer when no farm has the supply number (§8 'Farm not found, try again.'). */
export const NO_SUCH_FARM = 'No such farm';
const noSuchFarm = z.literal(NO_SUCH_FARM);

/** CHECK_ONLINE (§7): an online flag (the unit answered the check command), the newest vat reading's time, or 'No such farm'. */
const checkOnlineAnswerSchema = z.union([noSuchFarm, z.object({ online: z.boolean(), lastSeen: z.string().nullable() })]);
export type CheckOnlineAnswer = z.infer<typeof checkOnlineAnswerSchema>;

/** CHECK_DIAGNOSTICS (§7): data.device.network.signal.strength and quality, power.source, power.battery.state (the unit's answer). */
export const POWER_MAINS = 'VIN';
const checkDiagnosticsAnswerSchema = z.union([
  noSuchFarm,
  z.object({
    data: z.object({
      device: z.object({
        network: z.object({ signal: z.object({ strength: z.number().nullable(), quality: z.number().nullable() }), disconnects: z.number().nullable() }),
        /** source: VIN on mains, BATTERY off it, null when the unit did not answer; battery.state: charging, charged, discharging or unknown. */
        power: z.object({ source: z.string().nullable(), battery: z.object({ state: z.string() }) }),
        /** When the unit answered; null when it did not. */
        published_at: z.string().nullable(),
      }),
    }),
  }),
]);
export type CheckDiagnosticsAnswer = z.infer<typeof checkDiagnosticsAnswerSchema>;

/** CHECK_SENSORBOARDS (§7): text, beginning with 'fault' on failure. */
const checkSensorBoardsAnswerSchema = z.union([noSuchFarm, z.object({ result: z.string() })]);
export type CheckSensorBoardsAnswer = z.infer<typeof checkSensorBoardsAnswerSchema>;

/** §9 check thresholds. */
export const SIGNAL_STRENGTH_OKAY_ABOVE = 20;
export const SIGNAL_QUALITY_OKAY_ABOVE = 55;
export const batteryOkay = (state: string): boolean => state === 'charging' || state === 'charged';

/** Operator §8 Apply vat settings. */
const VAT_SETTINGS_RESULTS = {
  success: 'Success',
  connected: 'Fail, particle is connected.',
  notConnected: 'Fail, particle is not connected.',
} as const;
export const vatSettingsResultText = (a: { return_value: number; connected: boolean }): string =>
  a.return_value === 1 ? VAT_SETTINGS_RESULTS.success : a.connected ? VAT_SETTINGS_RESULTS.connected : VAT_SETTINGS_RESULTS.notConnected;

// ---- Contracts ------------------------------------------------------------------------------

const PATH = '/api/installer';
const installers = access.operator('Installer');

export const installerContracts = {
  /** Calibration's Apply (operator §2 Calibration, §7, §8): stores a vat's config and pushes it to the unit. */
  VAT_SETTINGS: contract({
    path: PATH,
    type: 'VAT_SETTINGS',
    input: z.object({
      type: z.literal('VAT_SETTINGS'),
      supplyNumber: calibrationSupplyNumber,
      vatNumber: calibrationVatNumber,
      vatSize: calibrationMeasure('Vat Size', 100_000, 1),
      height: calibrationMeasure('Height', 10_000, 1),
      diameter: calibrationMeasure('Diameter', 10_000, 1),
      wedgeHeight: calibrationMeasure('Wedge Height', 10_000),
      volumeOffset: calibrationMeasure('Volume Offset', 10_000, -10_000),
    }),
    answer: z.object({ return_value: z.number().int(), connected: z.boolean() }),
    access: installers,
  }),
  DEVICE_SEARCH: contract({ path: PATH, type: 'DEVICE_SEARCH', input: installerInputs.DEVICE_SEARCH, answer: deviceSearchAnswerSchema, access: installers }),
  PARTICLE_CONFIG: contract({ path: PATH, type: 'PARTICLE_CONFIG', input: installerInputs.PARTICLE_CONFIG, answer: z.object({ message: z.string() }), access: installers }),
  VAT_CONFIG: contract({
    path: PATH,
    type: 'VAT_CONFIG',
    input: installerInputs.VAT_CONFIG,
    answer: z.object({ success: z.boolean(), result: z.string(), device: vatDeviceSchema }),
    access: installers,
  }),
  NEW_INSTALL: contract({
    path: PATH,
    type: 'NEW_INSTALL',
    input: installerInputs.NEW_INSTALL,
    answer: z.object({
      success: z.boolean(),
      result: z.string(),
      /** Whether the screen moves on when its dialog closes (§4: the dairy company's form for FON, else Check Install). */
      redirect: z.boolean(),
      /** Shown once, for the installer to load onto the unit: nothing keeps the private key. */
      download: unitDownloadSchema.optional(),
    }),
    access: installers,
  }),
  INSTALLS: contract({
    path: PATH,
    type: 'INSTALLS',
    input: installerInputs.INSTALLS,
    answer: z.object({ count: z.number().int(), installs: z.array(installLogEntrySchema) }),
    access: installers,
  }),
  REISSUE_CERTIFICATE: contract({
    path: PATH,
    type: 'REISSUE_CERTIFICATE',
    input: installerInputs.REISSUE_CERTIFICATE,
    answer: z.object({
      success: z.literal(true),
      result: z.string(),
      /** The new certificate and key, shown once like New Install's. */
      download: unitDownloadSchema,
      /** The certificates deactivated and detached from the unit's thing. */
      revoked: z.array(z.string()),
    }),
    access: installers,
  }),
  CHECK_ONLINE: contract({ path: PATH, type: 'CHECK_ONLINE', input: installerInputs.CHECK_ONLINE, answer: checkOnlineAnswerSchema, access: installers }),
  CHECK_DIAGNOSTICS: contract({ path: PATH, type: 'CHECK_DIAGNOSTICS', input: installerInputs.CHECK_DIAGNOSTICS, answer: checkDiagnosticsAnswerSchema, access: installers }),
  CHECK_SENSORBOARDS: contract({ path: PATH, type: 'CHECK_SENSORBOARDS', input: installerInputs.CHECK_SENSORBOARDS, answer: checkSensorBoardsAnswerSchema, access: installers }),
} as const;
