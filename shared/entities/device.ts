import * as z from 'zod';

/** The latest values a device reported (operator spec §3 Device.last_updated). */
export const lastUpdatedSchema = z.object({
  published_at: z.string(),
  milk_level: z.number().nullable().optional(),
  milk_volume: z.number().nullable().optional(),
  temp1: z.number().nullable().optional(),
  temp2: z.number().nullable().optional(),
  temp5: z.number().nullable().optional(),
  shaft_rpm: z.number().nullable().optional(),
  agitator_status: z.number().nullable().optional(),
  state_machine: z.string().nullable().optional(),
  alert_status: z.number().nullable().optional(),
});

export type LastUpdated = z.infer<typeof lastUpdatedSchema>;

/** A vat's monitoring device with the vat's configuration (one device per vat). */
export const deviceSchema = z.object({
  _id: z.string(),
  /** The IoT thing name; the device publishes to dts/<name>/telemetry. */
  name: z.string(),
  farm_id: z.string(),
  vat_number: z.number().int().min(1).max(4),
  /** 1 active, 2 retired. */
  status: z.union([z.literal(1), z.literal(2)]),
  system_version: z.string().optional(),
  firmware_version: z.string().optional(),
  vat_size: z.number(),
  vat_max_height: z.number(),
  vat_diameter: z.number(),
  wedgeHeight: z.number(),
  vat_volume_offset: z.number(),
  vat_auto: z.boolean(),
  /** What the installer entered (operator §3 Vat device): optional, kept for the install record. */
  vat_manufacturer: z.string().optional(),
  vat_serial: z.string().optional(),
  radar_serial: z.string().optional(),
  /** The radar's clock position on the vat lid (0-12), when its wedge height was not entered by hand. */
  oclock: z.number().int().min(0).max(12).optional(),
  last_updated: lastUpdatedSchema.optional(),
  /** When the platform last received a reading of this device (arrival, not device time). */
  seen_at: z.string().optional(),
});
export type Device = z.infer<typeof deviceSchema>;


/** Device fields an installer or calibration sets; live values (last_updated) are never in a config write. */
export const DEVICE_CONFIG_FIELDS = [
  'name',
  'farm_id',
  'vat_number',
  'status',
  'system_version',
  'firmware_version',
  'vat_size',
  'vat_max_height',
  'vat_diameter',
  'wedgeHeight',
  'vat_volume_offset',
  'vat_auto',
  'vat_manufacturer',
  'vat_serial',
  'radar_serial',
  'oclock',
] as const satisfies readonly (keyof Device)[];
