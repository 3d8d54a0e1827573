import * as z from 'zod';
import { deviceSchema } from '../../entities/device';
import { auditEntrySchema } from '../../entities/audit';
import { supplierSchema, isDairyCompanyFarm, packageSchema, PACKAGES, supplierOf, type Farm, type Package } from '../../entities/farm';
import { ORGANIZATION_PACKAGES } from '../../entities/organization';
import { csvCell } from '../../text/csv';
import { access, contract } from '../contract';
import { boolField, FILE_MAX_BYTES, ID_MAX, idField, jsonField, MSG_FILE_TOO_LARGE } from '../fields';

/*
 * /api/admin/farm (operator spec §2 Admin farms, §3 Farm (admin), Farm settings row, §6, §7, §9):
 * Admin only. The Watch, dairy-company API status and Harvest flags are further limited to the
 * user ids of the configured list (FARM_FLAG_USER_IDS), checked on the server.
 */

/** operator §9: the dairy filter's codes. */
export const DAIRY_FILTERS = ['ALL', 'FON', 'NONE-FON', 'OCD', 'SYN', 'MIR', 'WES', 'TAT', 'MAT', 'GRE', 'DGC'] as const;
export type DairyFilter = (typeof DAIRY_FILTERS)[number];
/** operator §9: the farm list's page size. */
export const FARM_PAGE_SIZE = 30;

/** operator §5 names: FON is a 5-digit supply number or one starting with FON, or a farm stored as FON. */
export const matchesDairyFilter = (farm: Pick<Farm, 'fonterra_id' | 'supplier'>, filter: DairyFilter): boolean => {
  const fon = isDairyCompanyFarm(farm.fonterra_id) || supplierOf(farm) === 'FON';
  if (filter === 'ALL') return true;
  if (filter === 'FON') return fon;
  if (filter === 'NONE-FON') return !fon;
  return !fon && supplierOf(farm) === filter;
};

/** operator §9: billing codes per package; install codes (not named by the spec) are the package's code and INST. */
const BILLING_CODES: Readonly<Record<Package, string>> = { 'Vat-Man Lite': 'DTSVMLITE', 'Vat-Man Pro': 'DTSVMPRO', 'Vat-Man Auto': 'DTSVMAUTO' };
const INSTALL_CODES: Readonly<Record<Package, string>> = { 'Vat-Man Lite': 'DTSVMLITEINST', 'Vat-Man Pro': 'DTSVMPROINST', 'Vat-Man Auto': 'DTSVMAUTOINST' };

/** operator §9: the finance packages (an organization's package, farmer §9), by which farm_finance filters. */
export const FINANCE_FILTERS = ['ALL', ...ORGANIZATION_PACKAGES] as const;
export type FinanceFilter = (typeof FINANCE_FILTERS)[number];
export const PACKAGE_FILTERS = ['ALL', ...PACKAGES] as const;
export type PackageFilter = (typeof PACKAGE_FILTERS)[number];

/** A filter left blank (or not sent) means all, as a blank supply-number search does. */
const blankIsAll = (v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? 'ALL' : v);
const choiceFilter = <T extends readonly [string, ...string[]]>(name: string, choices: T) =>
  z.preprocess(blankIsAll, z.enum(choices, { error: `${name} must be blank, ${choices.join(', ')}` }));

/**
 * The fields every farm call carries (operator §7): the page's dairy filter, package filter,
 * supply-number search and finance filter. FARM_LIST applies them; each left blank means all.
 */
const carried = {
  dairy_current: choiceFilter('dairy_current', DAIRY_FILTERS),
  farm_type: choiceFilter('farm_type', PACKAGE_FILTERS),
  farm_id: z.string({ error: 'farm_id must be text' }).trim().max(ID_MAX, 'farm_id is not valid').default(''),
  farm_finance: choiceFilter('farm_finance', FINANCE_FILTERS),
};

/** A farm as the admin cards show it (operator §3 Farm (admin)): named fields only. */
const adminFarmSchema = z.strictObject({
  _id: z.string(),
  fonterra_id: z.string(),
  name: z.string().nullable(),
  supplier: supplierSchema,
  /** The farm's vat devices, in vat order. */
  devices: z.array(z.object({ _id: z.string(), name: z.string(), vat_number: z.number().int(), status: z.number().int() })),
  auto_check: z.boolean(),
  fonterra_api_status: z.boolean(),
  harvest: z.boolean(),
  package: packageSchema,
  install_packege: packageSchema,
  install_numVats: z.number().int(),
  install_date: z.string().nullable(),
});
export type AdminFarm = z.infer<typeof adminFarmSchema>;

/** operator §3 Farm settings row: the farm's milking window (see the CSV import in docs/architecture.md). */
const farmSettingsRowSchema = z.object({
  farm: z.string(),
  farm_id: z.string(),
  /** Minutes. */
  buffer_duration: z.number().int(),
  /** Farm-local time of day, HH:mm. */
  end_of_milking: z.string(),
  updated_at: z.string(),
});
export type FarmSettingsRow = z.infer<typeof farmSettingsRowSchema>;

// ---- Milking-window import ------------------------------------------------------------------

/**
 * The milking-window CSV (docs/architecture.md "Farms"): a header line, then one line
 * per farm. buffer_duration is whole minutes (0 to 720); end_of_milking the farm-local time of
 * day the milking ends, HH:mm on a 24-hour clock.
 */
export const MILKING_WINDOW_HEADER = ['supply_number', 'buffer_duration', 'end_of_milking'] as const;
export const BUFFER_MAX_MINUTES = 720;
/** operator §8. */
export const MSG_SUCCESS = 'Success!' as const;
/** Row errors listed at most; the rest are counted. */
const ERRORS_LISTED = 50;

interface MilkingWindowRow {
  /** The line in the file, the header being line 1 (as a spreadsheet numbers it). */
  readonly row: number;
  readonly supply_number: string;
  readonly buffer_duration: number;
  readonly end_of_milking: string;
}

const cellsOf = (line: string): string[] => line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim());

/**
 * Reads and checks every line of the file before anything is stored: answers the rows, or every
 * problem found, each naming its row. Blank lines are skipped; a supply number listed twice is a
 * problem (which line should win is not for the server to guess).
 */
export const parseMilkingWindowCsv = (text: string): { rows: MilkingWindowRow[]; errors: string[] } => {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const header = cellsOf(lines[0] ?? '').map((c) => c.toLowerCase());
  if (header.join(',') !== MILKING_WINDOW_HEADER.join(',')) return { rows: [], errors: [`The first line must be: ${MILKING_WINDOW_HEADER.join(',')}`] };
  const rows: MilkingWindowRow[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  lines.slice(1).forEach((line, i) => {
    const row = i + 2;
    if (line.trim() === '') return;
    const cells = cellsOf(line);
    if (cells.length !== MILKING_WINDOW_HEADER.length) return void errors.push(`Row ${row}: ${MILKING_WINDOW_HEADER.length} values expected, found ${cells.length}`);
    const [supply = '', buffer = '', end = ''] = cells;
    const problems: string[] = [];
    const supplyNumber = supply.toUpperCase();
    if (!supplyNumber || supplyNumber.length > ID_MAX) problems.push('supply_number is missing');
    else if (seen.has(supplyNumber)) problems.push(`supply number ${supplyNumber} is also on row ${seen.get(supplyNumber) ?? ''}`);
    else seen.set(supplyNumber, row);
    const minutes = /^\d{1,4}$/.test(buffer) ? Number(buffer) : NaN;
    if (!(minutes >= 0 && minutes <= BUFFER_MAX_MINUTES)) problems.push(`buffer_duration must be whole minutes from 0 to ${BUFFER_MAX_MINUTES}`);
    const time = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(end);
    if (!time) problems.push('end_of_milking must be a time of day as HH:mm (24-hour)');
    if (problems.length) return void errors.push(`Row ${row}: ${problems.join('; ')}`);
    rows.push({ row, supply_number: supplyNumber, buffer_duration: minutes, end_of_milking: `${(time?.[1] ?? '').padStart(2, '0')}:${time?.[2] ?? ''}` });
  });
  if (!errors.length && !rows.length) errors.push('The file has no rows.');
  return { rows, errors: listed(errors) };
};

/** At most ERRORS_LISTED messages, then how many more rows have problems. */
export const listed = (errors: readonly string[]): string[] =>
  errors.length > ERRORS_LISTED ? [...errors.slice(0, ERRORS_LISTED), `and ${errors.length - ERRORS_LISTED} more rows with problems`] : [...errors];

/**
 * The uploaded file as the API layer hands it over from a multipart form (lambdas/lib/multipart.ts),
 * or the same object as JSON text in a form-encoded or JSON body.
 */
const uploadedFileSchema = z.object(
  {
    filename: z.string().max(255, 'The file name is too long'),
    content: z.string().max(FILE_MAX_BYTES, MSG_FILE_TOO_LARGE),
  },
  { error: 'farms_settings must be a CSV file' },
);

const farmIdField = idField('_id');
const flagInput = <T extends string, F extends string>(type: T, flag: F) =>
  z.object({ type: z.literal(type), _id: farmIdField, [flag]: boolField, ...carried } as { type: z.ZodLiteral<T>; _id: typeof farmIdField } & Record<F, typeof boolField> & typeof carried);

const adminFarmInputs = {
  FARM_LIST: z.object({ type: z.literal('FARM_LIST'), ...carried }),
  FARM_AUTO_CHECK_STATUS: flagInput('FARM_AUTO_CHECK_STATUS', 'auto_check'),
  FARM_FONTERRA_API_STATUS: flagInput('FARM_FONTERRA_API_STATUS', 'fonterra_api_status'),
  FARM_HARVEST_API_STATUS: flagInput('FARM_HARVEST_API_STATUS', 'harvest'),
  FARMS_SETTINGS_GET: z.object({ type: z.literal('FARMS_SETTINGS_GET'), ...carried }),
  FARM_BILLING_OUTPUT: z.object({
    type: z.literal('FARM_BILLING_OUTPUT'),
    month: z
      .string({ error: 'month must be YYYY-MM' })
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM'),
    ...carried,
  }),
  FARM_AUDIT_LIST: z.object({ type: z.literal('FARM_AUDIT_LIST'), ...carried }),
  FARM_DELIVERY_DEAD_LETTERS: z.object({ type: z.literal('FARM_DELIVERY_DEAD_LETTERS'), ...carried }),
  FARMS_SETTINGS_UPLOAD: z.object({ type: z.literal('FARMS_SETTINGS_UPLOAD'), farms_settings: jsonField(uploadedFileSchema, 'farms_settings', 2 * FILE_MAX_BYTES), ...carried }),
} as const;

/** The three flags (operator §2, §4): the type that sets each, its field, and its label on the card. */
export const FARM_FLAGS = [
  { type: 'FARM_AUTO_CHECK_STATUS', field: 'auto_check', label: 'Watch' },
  { type: 'FARM_FONTERRA_API_STATUS', field: 'fonterra_api_status', label: 'API status' },
  { type: 'FARM_HARVEST_API_STATUS', field: 'harvest', label: 'Harvest' },
] as const;
export type FarmFlag = (typeof FARM_FLAGS)[number]['field'];

/** How many dead letters the Admin farms page lists (the newest). */
export const DEAD_LETTER_PAGE = 50;
/** One alert delivery that failed for good: when, which farm and alert, to whom, on which channel, and why. */
const deadLetterSchema = z.object({
  settled_at: z.string(),
  farm_id: z.string(),
  farm: z.string(),
  /** The farm's time zone, in which the time is shown. */
  timezone: z.string().optional(),
  alert_id: z.string(),
  /** The alert's type (farmer §3), when the alert is still stored. */
  type: z.number().int().optional(),
  vat_number: z.number().int().optional(),
  /** The address or phone it was for, when the user still exists. */
  recipient: z.string(),
  channel: z.enum(['sms', 'email', 'push']),
  attempts: z.number().int(),
  last_error: z.string(),
  /** Whether the other channel was tried instead (a fallback delivery exists). */
  fallback: z.boolean(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

const PATH = '/api/admin/farm';
const admin = access.admin();

export const adminFarmContracts = {
  FARM_LIST: contract({
    path: PATH,
    type: 'FARM_LIST',
    input: adminFarmInputs.FARM_LIST,
    answer: z.object({
      listFarm: z.array(adminFarmSchema),
      listDevice: z.array(deviceSchema),
      /** Whether the caller is on the flag list (operator §6): the checkboxes show only then. */
      flags_editable: z.boolean(),
    }),
    access: admin,
  }),
  FARM_AUTO_CHECK_STATUS: contract({ path: PATH, type: 'FARM_AUTO_CHECK_STATUS', input: adminFarmInputs.FARM_AUTO_CHECK_STATUS, answer: adminFarmSchema, access: admin }),
  FARM_FONTERRA_API_STATUS: contract({ path: PATH, type: 'FARM_FONTERRA_API_STATUS', input: adminFarmInputs.FARM_FONTERRA_API_STATUS, answer: adminFarmSchema, access: admin }),
  FARM_HARVEST_API_STATUS: contract({ path: PATH, type: 'FARM_HARVEST_API_STATUS', input: adminFarmInputs.FARM_HARVEST_API_STATUS, answer: adminFarmSchema, access: admin }),
  FARMS_SETTINGS_GET: contract({ path: PATH, type: 'FARMS_SETTINGS_GET', input: adminFarmInputs.FARMS_SETTINGS_GET, answer: z.array(farmSettingsRowSchema), access: admin }),
  /** The billing lines of a month as CSV text (operator §9 codes); the page saves it as a file. */
  FARM_BILLING_OUTPUT: contract({
    path: PATH,
    type: 'FARM_BILLING_OUTPUT',
    input: adminFarmInputs.FARM_BILLING_OUTPUT,
    answer: z.object({ filename: z.string(), csv: z.string() }),
    access: admin,
  }),
  /**
   * The multipart upload of `farms_settings` (operator §7; the spec names no type). Every row is
   * checked before any is stored: one bad row is a 422 listing each bad row, nothing stored.
   */
  FARMS_SETTINGS_UPLOAD: contract({
    path: PATH,
    type: 'FARMS_SETTINGS_UPLOAD',
    input: adminFarmInputs.FARMS_SETTINGS_UPLOAD,
    answer: z.object({ message: z.literal(MSG_SUCCESS), imported: z.number().int() }),
    access: admin,
  }),
  /** Not in the spec: the newest flag changes and imports, for the bottom of the page. */
  FARM_AUDIT_LIST: contract({ path: PATH, type: 'FARM_AUDIT_LIST', input: adminFarmInputs.FARM_AUDIT_LIST, answer: z.array(auditEntrySchema), access: admin }),
  /** Not in the spec: alert deliveries that failed for good (dead letters), newest first. */
  FARM_DELIVERY_DEAD_LETTERS: contract({
    path: PATH,
    type: 'FARM_DELIVERY_DEAD_LETTERS',
    input: adminFarmInputs.FARM_DELIVERY_DEAD_LETTERS,
    answer: z.array(deadLetterSchema),
    access: admin,
  }),
} as const;

// ---- Billing ---------------------------------------------------------------------------------

const BILLING_HEADER = ['month', 'supply_number', 'farm', 'supplier', 'package', 'code', 'quantity', 'sms_sent', 'sms_total'] as const;

export const csvLine = (cells: readonly (string | number)[]): string => cells.map(csvCell).join(',');

/**
 * The billing lines of `month` (YYYY-MM): every farm installed by the month's end gets its
 * package's monthly code; a farm installed in the month also gets the install code of the
 * package installed, once. Farms installed later are left out; a farm without an install date
 * is billed from the start. Sorted by supply number.
 */
export const billingCsv = (month: string, farms: readonly { farm: Farm; smsSent: number; smsTotal: number }[]): string => {
  const lines = [csvLine(BILLING_HEADER)];
  const sorted = [...farms].sort((a, b) => a.farm.fonterra_id.localeCompare(b.farm.fonterra_id));
  for (const { farm, smsSent, smsTotal } of sorted) {
    const installed = farm.install_date?.slice(0, 7);
    if (installed && installed > month) continue;
    const base = [month, farm.fonterra_id, farm.name ?? '', supplierOf(farm)] as const;
    lines.push(csvLine([...base, farm.package, BILLING_CODES[farm.package], 1, smsSent, smsTotal]));
    if (installed === month) {
      const pkg = farm.install_packege ?? farm.package;
      lines.push(csvLine([...base, pkg, INSTALL_CODES[pkg], 1, '', '']));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
};
