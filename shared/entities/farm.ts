import { z } from 'zod';

export const PACKAGES = ['Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto'] as const;
export const packageSchema = z.enum(PACKAGES);
export type Package = z.infer<typeof packageSchema>;

/** Farmer spec §5: a dairy-company farm id is 5 digits or starts with FON. */
export const isDairyCompanyFarm = (fonterraId: string): boolean =>
  /^\d{5}$/.test(fonterraId) || fonterraId.toUpperCase().startsWith('FON');

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
});
export type Farm = z.infer<typeof farmSchema>;
