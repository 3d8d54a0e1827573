import type { Device } from '../entities/device';
import { isOnMains, type ControllerStatus, type MessageType, type StateMachine, type TelemetryMessage } from './device-message';

/** The vat's configuration the volume is computed with (operator §3 Vat config). */
export type VatConfig = Pick<Device, 'vat_size' | 'vat_max_height' | 'vat_diameter' | 'wedgeHeight' | 'vat_volume_offset'>;

/**
 * Milk level from the radar (operator §4): the vat height minus the distance down to the milk,
 * rounded; never negative.
 */
export const levelFromRadar = (vatMaxHeight: number, radarDistance: number): number => Math.max(0, Math.round(vatMaxHeight - radarDistance));

/**
 * Volume in litres from the milk level (operator §4 calibration calculation): (level − wedge
 * height) × π × d² / 4,000,000 + volume offset, rounded to the litre. At or below the wedge
 * height the vat counts as empty (0), and a volume is never negative.
 */
export const volumeFromLevel = (level: number, vat: Pick<VatConfig, 'vat_diameter' | 'wedgeHeight' | 'vat_volume_offset'>): number => {
  if (level <= vat.wedgeHeight) return 0;
  const litres = ((level - vat.wedgeHeight) * Math.PI * vat.vat_diameter ** 2) / 4_000_000 + vat.vat_volume_offset;
  return Math.max(0, Math.round(litres));
};

/** Radar and level readings may overshoot the vat's height by this much (foam, mounting) before they are absurd. */
const LEVEL_TOLERANCE_MM = 100;

/**
 * What no sensor on this vat can read: a milk level or a radar distance beyond the vat's height.
 * The schema's bounds know nothing of the vat; this does. Returns the reason, or undefined.
 */
export const implausibleForVat = (m: Pick<TelemetryMessage, 'milk_level' | 'radar_distance'>, vat: Pick<VatConfig, 'vat_max_height'>): string | undefined => {
  const limit = vat.vat_max_height + LEVEL_TOLERANCE_MM;
  if (m.milk_level !== undefined && m.milk_level !== null && m.milk_level > limit)
    return `milk_level ${m.milk_level} mm is above the vat's height of ${vat.vat_max_height} mm`;
  if (m.radar_distance !== undefined && m.radar_distance !== null && m.radar_distance > limit)
    return `radar_distance ${m.radar_distance} mm is beyond the vat's height of ${vat.vat_max_height} mm`;
  return undefined;
};

/** Display rounding of farmer §9: volume to the nearest 10 L, temperature to 1 decimal. */
export const displayVolume = (litres: number): number => Math.round(litres / 10) * 10;
export const displayTemperature = (celsius: number): number => Math.round(celsius * 10) / 10;

/**
 * One stored reading of a vat (farmer §3 Storage reading, operator §3 Reading): the device's
 * values plus what the platform derived (level and volume from the vat config). Precise values
 * are stored; rounding is for display only, so alert thresholds compare the real figures.
 */
export interface Reading {
  readonly published_at: string;
  readonly message_type: MessageType;
  readonly radar_distance: number | null;
  readonly milk_level: number | null;
  readonly milk_volume: number | null;
  readonly temp1: number | null;
  readonly temp2: number | null;
  readonly temp3: number | null;
  readonly temp4: number | null;
  readonly temp5: number | null;
  readonly temp6: number | null;
  readonly pressure: number | null;
  readonly shaft_rpm: number | null;
  readonly agitator_status: 0 | 1 | null;
  readonly state_machine: StateMachine | null;
  /** Battery register as sent (hex); null when the message had none. */
  readonly battery_status: string | null;
  /** Derived from battery_status: true on mains, false on battery, null unknown. */
  readonly on_mains: boolean | null;
  readonly milk_in: number | null;
  readonly water_in: number | null;
  readonly quality: TelemetryMessage['quality'] | null;
  /** Vat-Man Auto controller's selector; null when the message had none (every other vat). */
  readonly controller_status: ControllerStatus | null;
}

/** Every field of a Reading, in a fixed order (stored items, day-bucket columns). Append only: a compact reading item (reading-item.ts) stores its values in this order. */
export const READING_FIELDS = [
  'published_at',
  'message_type',
  'radar_distance',
  'milk_level',
  'milk_volume',
  'temp1',
  'temp2',
  'temp3',
  'temp4',
  'temp5',
  'temp6',
  'pressure',
  'shaft_rpm',
  'agitator_status',
  'state_machine',
  'battery_status',
  'on_mains',
  'milk_in',
  'water_in',
  'quality',
  'controller_status',
] as const satisfies readonly (keyof Reading)[];

/** Normalises an ISO date-time to UTC with milliseconds, so one instant has one key. */
export const canonicalTime = (iso: string): string => new Date(iso).toISOString();

/**
 * A validated device message as a stored reading. The level is the device's own figure when it
 * sends one, else the radar's; the volume always comes from the level and the vat config, so a
 * recalibration applies the same formula everywhere.
 */
export const toReading = (m: TelemetryMessage, vat: VatConfig): Reading => {
  const level =
    m.milk_level ?? (m.radar_distance !== undefined && m.radar_distance !== null ? levelFromRadar(vat.vat_max_height, m.radar_distance) : null);
  return {
    published_at: canonicalTime(m.published_at),
    message_type: m.message_type,
    radar_distance: m.radar_distance ?? null,
    milk_level: level,
    milk_volume: level === null ? null : volumeFromLevel(level, vat),
    temp1: m.temp1 ?? null,
    temp2: m.temp2 ?? null,
    temp3: m.temp3 ?? null,
    temp4: m.temp4 ?? null,
    temp5: m.temp5 ?? null,
    temp6: m.temp6 ?? null,
    pressure: m.pressure ?? null,
    shaft_rpm: m.shaft_rpm ?? null,
    agitator_status: m.agitator_status ?? null,
    state_machine: m.state_machine ?? null,
    battery_status: m.battery?.status ?? null,
    on_mains: m.battery ? isOnMains(m.battery.status) : null,
    milk_in: m.cooler?.milk_in ?? null,
    water_in: m.cooler?.water_in ?? null,
    quality: m.quality ?? null,
    controller_status: m.controller_status ?? null,
  };
};

/** One reading stored twice is a duplicate when every field agrees (a retry); otherwise a conflict. */
export const sameReading = (a: Reading, b: Reading): boolean => JSON.stringify(a) === JSON.stringify(b);
/** A reading's identity across devices: the key of a batch lookup's answer. */
export const readingKey = (deviceId: string, publishedAt: string): string => `${deviceId}|${publishedAt}`;
