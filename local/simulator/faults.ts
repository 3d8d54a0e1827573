import * as z from 'zod';

/**
 * Faults the simulator can inject into one vat for a number of simulated minutes. Each maps to
 * an alert the platform raises (farmer §2.9 alert settings): power_outage, agitator_stopped,
 * milk_warm (chiller off), milk_warm_plate, milk_online_offline; and on a vat with a Vat-Man Auto
 * controller, auto_manual (selector on manual), auto_off (switched off) and auto_unknown (the
 * controller stops giving its status).
 */
export const RANDOM_FAULT_KINDS = ['power_cut', 'agitator_stop', 'chiller_off', 'warm_plate', 'offline'] as const;
const CONTROLLER_FAULT_KINDS = ['controller_manual', 'controller_off', 'controller_silent'] as const;
/**
 * Sensor faults the device cannot see itself (no alarm message): `radar_drift`, the radar reading
 * 1 mm further per simulated hour since the fault began (the milk looks lower; Watchman's
 * calibration check finds it against the dockets), until the fault ends (the radar is set right).
 */
const SENSOR_FAULT_KINDS = ['radar_drift'] as const;
/**
 * Faults an installer's Check Install finds: weak_signal (the cellular signal drops
 * below the §9 thresholds) and sensor_board (the vat's sensor board is missing: no temperature
 * probe reading, and the unit reports no board for that vat). Never random.
 */
const INSTALL_FAULT_KINDS = ['weak_signal', 'sensor_board'] as const;
export const FAULT_KINDS = [...RANDOM_FAULT_KINDS, ...CONTROLLER_FAULT_KINDS, ...SENSOR_FAULT_KINDS, ...INSTALL_FAULT_KINDS] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type RandomFaultKind = (typeof RANDOM_FAULT_KINDS)[number];
export const isControllerFault = (kind: FaultKind): boolean => (CONTROLLER_FAULT_KINDS as readonly string[]).includes(kind);

/** A week: longer faults are a typo rather than a demo. */
export const MAX_FAULT_MINUTES = 7 * 24 * 60;

export const faultRequestSchema = z
  .object({
    device: z.string({ message: 'device is required: the vat device name, e.g. vm-ocd40721-1, or a unit, e.g. unit-352656100000011' }).min(1, 'device is required'),
    kind: z.enum(FAULT_KINDS, { message: `kind must be one of ${FAULT_KINDS.join(', ')}` }),
    minutes: z
      .number({ message: 'minutes is required: a whole number of simulated minutes' })
      .int('minutes must be a whole number')
      .min(1, 'minutes must be at least 1')
      .max(MAX_FAULT_MINUTES, `minutes must be at most ${MAX_FAULT_MINUTES} (a week)`),
  })
  .strict();

/** A fault on a vat's simulated timeline: [from, until) in epoch ms. */
export interface ActiveFault {
  readonly kind: FaultKind;
  readonly from: number;
  readonly until: number;
}

const isActive = (f: ActiveFault, t: number): boolean => t >= f.from && t < f.until;

/** What the vat's hardware does at time t given its faults. */
export interface FaultEffects {
  /** Mains off: battery register even, refrigeration and agitator stop. */
  readonly powerCut: boolean;
  readonly agitatorStopped: boolean;
  readonly chillerOff: boolean;
  readonly warmPlate: boolean;
  readonly offline: boolean;
  readonly weakSignal: boolean;
  readonly sensorBoardMissing: boolean;
  /** The Vat-Man Auto controller's selector (auto unless a fault turns it), or null: no status sent. */
  readonly controller: 'auto' | 'manual' | 'off' | null;
  /** How far beyond the truth the radar reads, mm (radar_drift). */
  readonly radarDriftMm: number;
}

export const effectsAt = (faults: readonly ActiveFault[], t: number): FaultEffects => {
  const on = (k: FaultKind) => faults.some((f) => f.kind === k && isActive(f, t));
  return {
    powerCut: on('power_cut'),
    agitatorStopped: on('agitator_stop'),
    chillerOff: on('chiller_off'),
    warmPlate: on('warm_plate'),
    offline: on('offline'),
    weakSignal: on('weak_signal'),
    sensorBoardMissing: on('sensor_board'),
    controller: on('controller_silent') ? null : on('controller_off') ? 'off' : on('controller_manual') ? 'manual' : 'auto',
    radarDriftMm: faults.filter((f) => f.kind === 'radar_drift' && isActive(f, t)).reduce((mm, f) => Math.max(mm, Math.floor((t - f.from) / 3_600_000)), 0),
  };
};

/** A fault that starts at t (the device sends an alarm message, AM, on that minute). */
export const startsAt = (faults: readonly ActiveFault[], t: number, minuteMs = 60_000): boolean =>
  faults.some((f) => f.kind !== 'offline' && f.kind !== 'radar_drift' && f.kind !== 'weak_signal' && f.from <= t && t < f.from + minuteMs && t < f.until);

/** The cellular signal under a weak_signal fault: below §9's okay thresholds (strength above 20, quality above 55). */
export const WEAK_SIGNAL = { strength: 12, quality: 38 } as const;

/** Durations (simulated minutes) of the random demo faults: short enough to read on a 2-day chart. */
export const RANDOM_FAULT_MINUTES: Readonly<Record<RandomFaultKind, readonly [number, number]>> = {
  power_cut: [10, 60],
  agitator_stop: [20, 90],
  chiller_off: [180, 360],
  warm_plate: [60, 120],
  offline: [20, 90],
};
