import * as z from 'zod';
import type { Package } from './farm';

/**
 * The installer's records (operator §3): the controller unit on a farm ('particle' in the spec:
 * one cellular board, one IMEI, serving up to 4 vats) and the install log.
 */

/** A farm's controller unit. Its `_id` is its IoT thing name, made from the IMEI (unitThingName). */
export const unitSchema = z.object({
  _id: z.string(),
  imei: z.string(),
  farm_id: z.string(),
  low_connectivity: z.boolean(),
  /** Displays wired to the unit (New Install's numDisplays, 0-4). */
  num_displays: z.number().int().min(0).max(4).optional(),
  /** The unit's certificate (its id at IoT), attached to its thing. */
  certificate_id: z.string().optional(),
  created_at: z.string(),
});
export type Unit = z.infer<typeof unitSchema>;

/** One unit per IMEI, one thing per unit: the thing's name is the IMEI's. */
export const UNIT_THING_PREFIX = 'unit-';
export const unitThingName = (imei: string): string => `${UNIT_THING_PREFIX}${imei}`;
/** The IMEI inside a unit's thing name (unitThingName), or undefined for any other name. */
export const imeiOfUnitThing = (thingName: string): string | undefined => /^unit-(\d{15})$/.exec(thingName)?.[1];

/** IoT attribute values allow no spaces: the variant is kept as lite, pro or auto. */
const variantAttribute = (pkg: Package): string => pkg.replace(/^Vat-Man /, '').toLowerCase();
/** The unit's thing attributes (imei, supply number, variant, low connectivity). */
export const unitAttributes = (imei: string, supplyNumber: string, pkg: Package, lowConnectivity: boolean): Record<string, string> => ({
  imei,
  supply_number: supplyNumber,
  variant: variantAttribute(pkg),
  low_connectivity: String(lowConnectivity),
});

/** Install log entry types (operator §3): a new install has none. */
const CHECK_TYPES = ['Check Online', 'Check Diagnostics', 'Check Sensor Boards'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** The log's filter (operator §9 'All, New Installs, Install Checks, Device Diagnostics'). */
export const LOG_TYPES = ['All', 'New Installs', 'Install Checks', 'Device Diagnostics'] as const;
export type LogType = (typeof LOG_TYPES)[number];
/** Which entries each filter shows: the connection check is the install check; diagnostics and sensor boards are the device's. */
export const logTypeMatches = (logType: LogType, type: CheckType | undefined): boolean =>
  logType === 'All' ||
  (logType === 'New Installs' && type === undefined) ||
  (logType === 'Install Checks' && type === 'Check Online') ||
  (logType === 'Device Diagnostics' && (type === 'Check Diagnostics' || type === 'Check Sensor Boards'));

export const INSTALL_LOG_PAGE = 50;

export const installLogEntrySchema = z.object({
  _id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  supply_number: z.string(),
  installer_name: z.string(),
  imei: z.string(),
  /** What happened, in words ('Vat-Man installed', 'Connection is up' …). */
  result: z.string(),
  numVats: z.number().int().optional(),
  particle_id: z.string(),
  type: z.enum(CHECK_TYPES).optional(),
  network: z.string().optional(),
  signalStrength: z.number().optional(),
  signalQuality: z.number().optional(),
  disconnects: z.number().optional(),
  power: z.string().optional(),
  batteryCharge: z.number().optional(),
  batteryState: z.string().optional(),
  checkSensorBoards: z.string().optional(),
});
export type InstallLogEntry = z.infer<typeof installLogEntrySchema>;
