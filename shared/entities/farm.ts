import { z } from 'zod';

export const PACKAGES = ['Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto'] as const;
export const packageSchema = z.enum(PACKAGES);
export type Package = z.infer<typeof packageSchema>;

/** Farmer spec §5: a dairy-company farm id is 5 digits or starts with FON. */
export const isDairyCompanyFarm = (fonterraId: string): boolean =>
  /^\d{5}$/.test(fonterraId) || fonterraId.toUpperCase().startsWith('FON');

/** Dairy supplier codes (operator §3): FON is the main dairy company. */
export const DAIRY_SUPPLIERS = ['FON', 'OCD', 'SYN', 'MIR', 'WES', 'TAT', 'MAT', 'GRE', 'DGC', 'WAI', 'OTH'] as const;
export const dairySupplierSchema = z.enum(DAIRY_SUPPLIERS);
export type DairySupplier = z.infer<typeof dairySupplierSchema>;

/**
 * A farm's dairy supplier: the code the installer's new install stored (`dairy_supplier`), else
 * read from the supply number (a dairy-company number; a known code as its prefix, as the demo's
 * OCD40721 and WES118), else OTH.
 */
export const supplierOf = (farm: { readonly fonterra_id: string; readonly dairy_supplier?: DairySupplier | undefined }): DairySupplier => {
  if (farm.dairy_supplier) return farm.dairy_supplier;
  if (isDairyCompanyFarm(farm.fonterra_id)) return 'FON';
  const prefix = farm.fonterra_id.slice(0, 3).toUpperCase();
  return DAIRY_SUPPLIERS.find((c) => c === prefix) ?? 'OTH';
};

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
  url: z.string().optional(),
  alarm_active: z.boolean().optional(),
  /** When the knode gateway read the asset (absent for assets entered by hand). */
  published_at: z.string().optional(),
});
export type KnodeAsset = z.infer<typeof knodeAssetSchema>;

export const knodeSchema = z.object({
  is_water_enabled: z.boolean(),
  is_effluent_enabled: z.boolean(),
  is_land_enabled: z.boolean(),
  is_weather_enabled: z.boolean(),
});

export const farmSchema = z.object({
  _id: z.string(),
  fonterra_id: z.string(),
  name: z.string().optional(),
  package: packageSchema,
  is_milk_enabled: z.boolean(),
  power: z.boolean(),
  knode: knodeSchema,
  /** IANA zone for local times in messages and charts. */
  timezone: z.string(),
  auto_check: z.boolean(),
  fonterra_api_status: z.boolean(),
  harvest: z.boolean(),
  install_numVats: z.number().int().min(1).max(4),
  install_date: z.string().optional(),
  /** The dairy the farm supplies (operator §3 codes): set by the installer's new install. */
  dairy_supplier: dairySupplierSchema.optional(),
  /** The package installed (operator §3 `install_packege`, spelled so), which `package` may since differ from. */
  install_packege: packageSchema.optional(),
});
export type Farm = z.infer<typeof farmSchema>;
