import type { VatConfig } from '../../shared/telemetry/reading';
import type { ActiveFault } from './faults';
import { createRng, hashString, intBetween, uniform } from './random';

/** The vat model's state, its configuration, the farm's milkings and the physics constants (vat-model.ts runs them). */

export const MINUTE = 60_000;

export interface VatModelConfig {
  /** Device (MQTT thing) name: seeds the vat's own noise. */
  readonly device: string;
  /** The farm's key (its supply number): vats on one farm milk at the same times. */
  readonly farmKey: string;
  /** IANA zone of the farm: milking times are farm-local. */
  readonly timezone: string;
  readonly vat: VatConfig;
  readonly seed: number;
  /** Expected random faults per simulated day on this vat (0, the default, for none). */
  readonly randomFaultsPerDay?: number;
  /** A Vat-Man Auto controller runs this vat: each message carries its `controller_status`. */
  readonly controller?: boolean;
  /**
   * The vat's model estimates the milk's quality (farmer §3 quality: currentEstCFU, pickupEstCFU),
   * as the dairy company's vats do: each message with milk in the vat carries them.
   */
  readonly quality?: boolean;
}

type Phase = 'idle' | 'milking' | 'collecting';

/** The model's whole state: plain JSON. */
export interface VatModelState {
  readonly version: 1;
  /** Last simulated minute (epoch ms); null before the first step. */
  t: number | null;
  rng: number;
  faultRng: number;
  phase: Phase;
  volume: number;
  temp1: number;
  temp2: number;
  temp3: number;
  temp5: number;
  milkIn: number;
  fridgeOn: boolean;
  milking: { session: string; start: number; end: number; litres: number } | null;
  lastSession: string | null;
  milkingsSinceCollection: number;
  collectAt: number | null;
  collectStart: number | null;
  cip: { from: number; until: number } | null;
  signal: { strength: number; quality: number; disconnects: number };
  seq: number;
  wasOffline: boolean;
  faults: ActiveFault[];
  /** The colony estimate of the milk in the vat (log CFU/mL); absent in a state saved before it. */
  cfu?: number;
}

interface LocalTime {
  readonly dateKey: string;
  readonly minuteOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Farm-local date and minute of day (Intl, so daylight saving is right). */
export const localTime = (timezone: string, t: number): LocalTime => {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timezone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(t)) p[part.type] = part.value;
  return { dateKey: `${p.year}-${p.month}-${p.day}`, minuteOfDay: Number(p.hour) * 60 + Number(p.minute) };
};

interface Session {
  readonly id: string;
  /** Farm-local minute of day the milking starts. */
  readonly start: number;
  readonly minutes: number;
  /** Share of the vat's size this milking brings. */
  readonly fraction: number;
}

export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The quality estimate (farmer §3, §9 bands: Excellent up to 4.3): fresh milk starts at 3.6 and
 * the estimate grows with time in the vat, doubling its pace with every 4 °C over 4 °C. Cold
 * milk stays Excellent for days; a vat left warm for hours climbs toward the risk bands.
 */
export const FRESH_CFU = 3.6;
export const cfuGrowthPerMinute = (temp: number) => 0.00008 * 2 ** ((Math.max(0, temp) - 4) / 4);
/** When no tanker is due yet, the estimate at pickup looks a day ahead. */
export const PICKUP_LOOKAHEAD_MINUTES = 24 * 60;
export const toward = (x: number, target: number, tauMinutes: number) => x + (target - x) / tauMinutes;
export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Specific heat of milk, kJ/(L·K). */
export const MILK_HEAT = 3.9;
export const THERMOSTAT_ON = 4.6;
export const THERMOSTAT_OFF = 3.7;
export const PUMP_LITRES_PER_MINUTE = 1_500;

/** A new vat's state: empty, at the dairy's temperature, its signal at the site's level. */
export const initialVatState = (config: Pick<VatModelConfig, 'seed' | 'device'>, deviceHash: number, signalBase: { readonly strength: number; readonly quality: number }): VatModelState =>
  ({
        version: 1,
        t: null,
        rng: deviceHash,
        faultRng: hashString(`${config.seed}|${config.device}|faults`),
        phase: 'idle',
        volume: 0,
        temp1: 14,
        temp2: 14,
        temp3: 14,
        temp5: 14,
        milkIn: 14,
        fridgeOn: false,
        milking: null,
        lastSession: null,
        milkingsSinceCollection: 0,
        collectAt: null,
        collectStart: null,
        cip: null,
        signal: { strength: Math.round(signalBase.strength), quality: Math.round(signalBase.quality), disconnects: 0 },
        seq: 0,
        wasOffline: false,
        faults: [],
      });

/** The farm's two milkings of a day (times the farm's, amounts the vat's own), the last few days' kept. */
export const farmSessions = (config: Pick<VatModelConfig, 'seed' | 'device' | 'farmKey'>) => {
  const sessionCache = new Map<string, readonly Session[]>();
  const sessionsOf = (dateKey: string): readonly Session[] => {
    const cached = sessionCache.get(dateKey);
    if (cached) return cached;
    // Times are the farm's (one shed milks every vat); the amount is the vat's own.
    const farm = createRng(hashString(`${config.seed}|${config.farmKey}|${dateKey}`));
    const own = createRng(hashString(`${config.seed}|${config.device}|${dateKey}`));
    const sessions = [
      { id: `${dateKey}-am`, start: 330 + intBetween(farm, -20, 20), minutes: intBetween(farm, 90, 150), fraction: uniform(own, 0.35, 0.45) },
      { id: `${dateKey}-pm`, start: 930 + intBetween(farm, -20, 20), minutes: intBetween(farm, 90, 150), fraction: uniform(own, 0.35, 0.45) },
    ];
    if (sessionCache.size > 8) sessionCache.clear();
    sessionCache.set(dateKey, sessions);
    return sessions;
  };
  return sessionsOf;
};
