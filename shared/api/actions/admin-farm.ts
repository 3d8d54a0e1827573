import { z } from 'zod';
import { deviceSchema } from '../../entities/device';
import { auditEntrySchema } from '../../entities/audit';
import { dairySupplierSchema, isDairyCompanyFarm, packageSchema, PACKAGES, supplierOf, type Farm, type Package } from '../../entities/farm';
import { access, contract } from '../contract';
import { boolField, ID_MAX, idField } from '../fields';

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
export const matchesDairyFilter = (farm: Pick<Farm, 'fonterra_id' | 'dairy_supplier'>, filter: DairyFilter): boolean => {
  const fon = isDairyCompanyFarm(farm.fonterra_id) || supplierOf(farm) === 'FON';
  if (filter === 'ALL') return true;
  if (filter === 'FON') return fon;
  if (filter === 'NONE-FON') return !fon;
  return !fon && supplierOf(farm) === filter;
};

/** operator §9: billing codes per package; install codes (not named by the spec) are the package's code and INST. */
export const BILLING_CODES: Readonly<Record<Package, string>> = { 'Vat-Man Lite': 'DTSVMLITE', 'Vat-Man Pro': 'DTSVMPRO', 'Vat-Man Auto': 'DTSVMAUTO' };
export const INSTALL_CODES: Readonly<Record<Package, string>> = { 'Vat-Man Lite': 'DTSVMLITEINST', 'Vat-Man Pro': 'DTSVMPROINST', 'Vat-Man Auto': 'DTSVMAUTOINST' };

/**
 * The fields every farm call carries (operator §7): the page's dairy filter, package filter,
 * supply-number search and finance filter. FARM_LIST applies the first three; the finance
 * packages belong to organizations, which do not exist yet, so `farm_finance` is read and left.
 */
const carried = {
  dairy_current: z.enum(DAIRY_FILTERS, { error: `dairy_current must be one of ${DAIRY_FILTERS.join(', ')}` }).default('ALL'),
  farm_type: z.enum(['ALL', ...PACKAGES], { error: 'farm_type must be ALL or a package' }).default('ALL'),
  farm_id: z.string({ error: 'farm_id must be text' }).trim().max(ID_MAX, 'farm_id is not valid').default(''),
  farm_finance: z.string({ error: 'farm_finance must be text' }).max(ID_MAX, 'farm_finance is not valid').default(''),
};

/** A farm as the admin cards show it (operator §3 Farm (admin)): named fields only. */
export const adminFarmSchema = z.strictObject({
  _id: z.string(),
  fonterra_id: z.string(),
  name: z.string().nullable(),
  dairy_supplier: dairySupplierSchema,
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
export const farmSettingsRowSchema = z.object({
  farm: z.string(),
  farm_id: z.string(),
  /** Minutes. */
  buffer_duration: z.number().int(),
  /** Farm-local time of day, HH:mm. */
  end_of_milking: z.string(),
  updated_at: z.string(),
});
export type FarmSettingsRow = z.infer<typeof farmSettingsRowSchema>;

const farmIdField = idField('_id');
const flagInput = <T extends string, F extends string>(type: T, flag: F) =>
  z.object({ type: z.literal(type), _id: farmIdField, [flag]: boolField, ...carried } as { type: z.ZodLiteral<T>; _id: typeof farmIdField } & Record<F, typeof boolField> & typeof carried);

export const adminFarmActions = {
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
} as const;

/** The three flags (operator §2, §4): the type that sets each, its field, and its label on the card. */
export const FARM_FLAGS = [
  { type: 'FARM_AUTO_CHECK_STATUS', field: 'auto_check', label: 'Watch' },
  { type: 'FARM_FONTERRA_API_STATUS', field: 'fonterra_api_status', label: 'API status' },
  { type: 'FARM_HARVEST_API_STATUS', field: 'harvest', label: 'Harvest' },
] as const;
export type FarmFlag = (typeof FARM_FLAGS)[number]['field'];

const PATH = '/api/admin/farm';
const admin = access.operator();

export const adminFarmContracts = {
  FARM_LIST: contract({
    path: PATH,
    type: 'FARM_LIST',
    input: adminFarmActions.FARM_LIST,
    answer: z.object({
      listFarm: z.array(adminFarmSchema),
      listDevice: z.array(deviceSchema),
      /** Whether the caller is on the flag list (operator §6): the checkboxes show only then. */
      flags_editable: z.boolean(),
    }),
    access: admin,
  }),
  FARM_AUTO_CHECK_STATUS: contract({ path: PATH, type: 'FARM_AUTO_CHECK_STATUS', input: adminFarmActions.FARM_AUTO_CHECK_STATUS, answer: adminFarmSchema, access: admin }),
  FARM_FONTERRA_API_STATUS: contract({ path: PATH, type: 'FARM_FONTERRA_API_STATUS', input: adminFarmActions.FARM_FONTERRA_API_STATUS, answer: adminFarmSchema, access: admin }),
  FARM_HARVEST_API_STATUS: contract({ path: PATH, type: 'FARM_HARVEST_API_STATUS', input: adminFarmActions.FARM_HARVEST_API_STATUS, answer: adminFarmSchema, access: admin }),
  FARMS_SETTINGS_GET: contract({ path: PATH, type: 'FARMS_SETTINGS_GET', input: adminFarmActions.FARMS_SETTINGS_GET, answer: z.array(farmSettingsRowSchema), access: admin }),
  /** The billing lines of a month as CSV text (operator §9 codes); the page saves it as a file. */
  FARM_BILLING_OUTPUT: contract({
    path: PATH,
    type: 'FARM_BILLING_OUTPUT',
    input: adminFarmActions.FARM_BILLING_OUTPUT,
    answer: z.object({ filename: z.string(), csv: z.string() }),
    access: admin,
  }),
  /** Not in the spec (issue 18): the newest flag changes and imports, for the bottom of the page. */
  FARM_AUDIT_LIST: contract({ path: PATH, type: 'FARM_AUDIT_LIST', input: adminFarmActions.FARM_AUDIT_LIST, answer: z.array(auditEntrySchema), access: admin }),
} as const;

// ---- Billing ---------------------------------------------------------------------------------

export const BILLING_HEADER = ['month', 'supply_number', 'farm', 'dairy_supplier', 'package', 'code', 'quantity', 'sms_sent', 'sms_total'] as const;

const csvCell = (v: string | number): string => {
  const s = String(v);
  // A leading =, +, - or @ would be a formula in a spreadsheet: quote it with a leading apostrophe.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
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
