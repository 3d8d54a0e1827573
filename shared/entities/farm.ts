import * as z from 'zod';

export const PACKAGES = ['Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto'] as const;
export const packageSchema = z.enum(PACKAGES);
export type Package = z.infer<typeof packageSchema>;

/** Farmer spec §5: a dairy-company farm id is 5 digits or starts with FON. */
export const isDairyCompanyFarm = (fonterraId: string): boolean =>
  /^\d{5}$/.test(fonterraId) || fonterraId.toUpperCase().startsWith('FON');

/**
 * Dairy supplier codes (operator §3): who the farm supplies. The partner views decide by it, never
 * by the supply number's look: Westlands staff see the farms whose supplier is WES, Milk Quality
 * staff the main dairy company's (FON).
 */
export const SUPPLIER_CODES = ['FON', 'OCD', 'SYN', 'MIR', 'WES', 'TAT', 'MAT', 'GRE', 'DGC', 'WAI', 'OTH'] as const;
export const supplierSchema = z.enum(SUPPLIER_CODES);
export type Supplier = z.infer<typeof supplierSchema>;
/** The main dairy company's code (operator §3 'FON'). */
export const DAIRY_COMPANY_SUPPLIER: Supplier = 'FON';
export const WESTLANDS_SUPPLIER: Supplier = 'WES';

/**
 * A farm's dairy supplier for the admin filter (operator §9 dairy filter): the code stored on the
 * farm (the installer's new install, the seed), else read from the supply number (a dairy-company
 * number; a known code as its prefix, as the demo's OCD40721 and WES118), else OTH. Access to the
 * partner views goes by the stored code alone (docs/architecture.md).
 */
export const supplierOf = (farm: { readonly fonterra_id: string; readonly supplier?: Supplier | undefined }): Supplier => {
  if (farm.supplier) return farm.supplier;
  if (isDairyCompanyFarm(farm.fonterra_id)) return 'FON';
  const prefix = farm.fonterra_id.slice(0, 3).toUpperCase();
  return SUPPLIER_CODES.find((c) => c === prefix) ?? 'OTH';
};

/** Ours: a knode asset's link opens from the dashboard, so it must be a web address, never `javascript:` or `data:`. */
export const MSG_KNODE_URL = 'A knode asset url must be an https: address.';
/** An https address of at most 2,048 characters (what browsers and the dashboard's link keep). */
export const knodeUrlSchema = z.url({ protocol: /^https$/i, error: MSG_KNODE_URL }).max(2048, MSG_KNODE_URL);

export const knodeAssetSchema = z.object({
  type: z.string(),
  asset_name: z.string(),
  metric_value_1: z.number().nullable().optional(),
  metric_value_2: z.number().nullable().optional(),
  metric_value_3: z.number().nullable().optional(),
  metric_value_4: z.number().nullable().optional(),
  metric_value_5: z.number().nullable().optional(),
  metric_value_6: z.number().nullable().optional(),
  unit_1: z.string().optional(),
  /**
   * Only https: links reach the dashboard. One stored before the gateway's messages were held to
   * that is read as no link (the asset still shows), rather than failing the whole dashboard.
   */
  url: knodeUrlSchema.optional().catch(undefined),
  alarm_active: z.boolean().optional(),
  /** When the knode gateway read the asset (absent for assets entered by hand). */
  published_at: z.string().optional(),
});
export type KnodeAsset = z.infer<typeof knodeAssetSchema>;

const knodeSchema = z.object({
  is_water_enabled: z.boolean(),
  is_effluent_enabled: z.boolean(),
  is_land_enabled: z.boolean(),
  is_weather_enabled: z.boolean(),
});

export const farmSchema = z.object({
  _id: z.string(),
  fonterra_id: z.string(),
  /**
   * The dairy supplier code (the new install's dairySupplier, operator §3). Absent on a farm stored
   * before the field: such a farm is no partner's (neither partner view reaches it; Admin does).
   */
  supplier: supplierSchema.optional(),
  name: z.string().optional(),
  package: packageSchema,
  is_milk_enabled: z.boolean(),
  power: z.boolean(),
  knode: knodeSchema,
  /** IANA zone for local times in messages and charts. */
  timezone: z.string(),
  auto_check: z.boolean(),
  fonterra_api_status: z.boolean(),
  /**
   * Set when an operator turned the dairy-company sync off by hand (the Farms page's API status):
   * Watchman then never turns it back on; an operator turning it on clears it.
   */
  fonterra_sync_held: z.boolean().optional(),
  harvest: z.boolean(),
  install_numVats: z.number().int().min(1).max(4),
  install_date: z.string().optional(),
  /** The package installed (operator §3 `install_packege`, spelled so), which `package` may since differ from. */
  install_packege: packageSchema.optional(),
});
export type Farm = z.infer<typeof farmSchema>;
