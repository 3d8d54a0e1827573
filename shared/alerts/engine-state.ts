import type { Reading } from '../telemetry/reading';
import type { CapacityHistory } from './capacity-forecast';
import type { AlertSettings } from './settings';
import type { AlertData, NotificationType, RaisedAlert } from './types';

/** The alert engine's state per vat, saved between readings (JSON): its shape is what the store holds. */
export const ENGINE_VERSION = 1;

export interface Cond {
  /** First reading (ISO) of the current unbroken run of the condition. */
  since: string | null;
  open: boolean;
  clearSince: string | null;
}

export interface Milking {
  start: string;
  end: string | null;
  /** The vat was (nearly) empty at the start: the 4-hour rule to 10 °C applies. */
  first: boolean;
  /** Litres in the vat when it started (the capacity forecast's milking volume). */
  startVolume?: number | null;
}

export interface AlertEngineState {
  version: typeof ENGINE_VERSION;
  /** The newest reading evaluated (older ones are ignored: late readings are old news). */
  cursor: string | null;
  /**
   * When that reading arrived (the clock's time). OFFLINE is about the device going silent, not
   * about old data: a device catching up on buffered readings is online.
   */
  seenAt: string | null;
  last: AlertData | null;
  lastOnMains: boolean | null;
  conds: Partial<Record<string, Cond>>;
  milking: Milking | null;
  durations: number[];
  /** UTC minute of day of recent milking ends (late milking, 1201). */
  ends: number[];
  collectingSince: string | null;
  pickupDue: { at: string; data: AlertData } | null;
  /**
   * Cooling at risk (105): the ended milking being cooled, its last readings (epoch ms,
   * °C; the fit's window) and whether 105 was raised for it (once per milking). Absent in a state
   * saved before it.
   */
  cooling?: { milking: string; samples: [number, number][]; raised: boolean } | null;
  /** Milkings and detected collections for the capacity forecast (202); absent in states saved before it. */
  capacity?: CapacityHistory;
}

export interface AlertContext {
  readonly vat: { readonly vat_size: number };
  readonly settings: AlertSettings;
  /** Pro and Auto get the Pro rules (110, 111, 601, 701; farmer §2.9). */
  readonly pro: boolean;
  /** Dairy-company farms get the quality alerts (1001-1004, 1102). */
  readonly dairyCompany: boolean;
  /** Vat-Man Auto farms get the controller rules (112-114; farmer §2.9 Vat-Man Auto section). */
  readonly auto: boolean;
  /**
   * The farm's milking window from the admin import (operator §2 settings): milkings of
   * that session are late (1201) when they end over `buffer_duration` minutes after
   * `end_of_milking` (farm-local HH:mm in `timezone`). Without one, the session's usual end is
   * learned from the previous milkings.
   */
  readonly milkingWindow?: { readonly end_of_milking: string; readonly buffer_duration: number; readonly timezone: string };
  /** The farm's IANA zone: times in an alert's words (105's predicted time) and the capacity forecast's sessions and pickup times are the farm's (§9). UTC without it. */
  readonly timezone?: string;
  /** Pickups the farmer submitted for this vat (ISO; /dts/pickup), beside the collections the engine detects. */
  readonly submittedPickups?: readonly string[];
}


export interface EngineStep {
  readonly state: AlertEngineState;
  readonly raised: RaisedAlert[];
  readonly cleared: NotificationType[];
}

/** The clock port: tests advance it; the sweep reads it. */
export interface Clock {
  now(): Date;
}

export const initialAlertState = (): AlertEngineState => ({
  version: ENGINE_VERSION,
  cursor: null,
  seenAt: null,
  last: null,
  lastOnMains: null,
  conds: {},
  milking: null,
  durations: [],
  ends: [],
  collectingSince: null,
  pickupDue: null,
});

export const dataOf = (r: Reading): AlertData => ({ published_at: r.published_at, temp1: r.temp1, milk_volume: r.milk_volume, agitator_status: r.agitator_status });
