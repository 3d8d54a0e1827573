import { isOnMains, type StateMachine } from '../device-message';
import type { Reading, VatConfig } from '../reading';

/**
 * Scripted reading streams for the detector and downsampler tests: one reading a minute, a day
 * that holds a collection, a vat wash (CIP), two milkings and the storage between, with outages,
 * battery-off stretches and agitator stops injected where a test wants them. Deterministic: no
 * clock, no randomness (the "noise" is a fixed pattern).
 */

const TRACE_START = '2025-03-10T00:00:00.000Z';

/** A 20,000 L vat: 5% (near empty, the milking-start rule) is 1,000 L. */
export const TRACE_VAT: VatConfig = { vat_size: 20_000, vat_max_height: 2_600, vat_diameter: 3_200, wedgeHeight: 40, vat_volume_offset: 0 };

/** ISO instant `minute` minutes (plus `seconds`) after `start`. */
export const at = (minute: number, seconds = 0, start = TRACE_START): string =>
  new Date(Date.parse(start) + minute * 60_000 + seconds * 1_000).toISOString();

type ReadingOverrides = Partial<Omit<Reading, 'on_mains' | 'battery_status'>> & {
  /** Battery register hex; sets battery_status and on_mains as the ingest does. */
  readonly battery?: string | null;
};

/** One reading: nulls everywhere except what is given (published_at defaults to TRACE_START). */
export const reading = ({ battery = null, ...o }: ReadingOverrides = {}): Reading => ({
  published_at: TRACE_START,
  message_type: 'DATA',
  radar_distance: null,
  milk_level: null,
  milk_volume: null,
  temp1: null,
  temp2: null,
  temp3: null,
  temp4: null,
  temp5: null,
  temp6: null,
  pressure: null,
  shaft_rpm: null,
  agitator_status: null,
  state_machine: null,
  milk_in: null,
  water_in: null,
  quality: null,
  controller_status: null,
  ...o,
  battery_status: battery,
  on_mains: battery === null ? null : isOnMains(battery),
});

/** The minutes of the day (from midnight) where the scripted events happen. */
export const DAY = {
  minutes: 1_440,
  /** The last reading before the tanker starts; the volume falls 1,000 L/min from the next one. */
  collectionFrom: 179,
  /** The vat wash after the collection: temp5 70 °C from here… */
  cipFrom: 201,
  /** …38 °C (between the thresholds) at 221, and 29 °C (below the end threshold) here. */
  cipTo: 222,
  /** Morning milking: som at 300–304, milking 305–414, eom 415–419, storage from 420. */
  morningMilking: { som: 300, eom: 415, end: 420 },
  /** Afternoon milking, the same shape. */
  afternoonMilking: { som: 900, eom: 1_015, end: 1_020 },
  /** About the litres per milking (50 L/min over the 119 readings after som). */
  milkingLitres: 6_000,
  /** Tanker pump rate. */
  pumpLitresPerMin: 1_000,
} as const;

type Span = readonly [from: number, to: number];

interface TraceOptions {
  /** Number of days (1,440 readings each). @default 1 */
  readonly days?: number;
  /** @default TRACE_START */
  readonly start?: string;
  /** Volume in the vat at the first reading (last night's milking). @default 8000 */
  readonly startVolume?: number;
  /** Minute spans [from, to) with no readings at all. */
  readonly outages?: readonly Span[];
  /** Minute spans [from, to) where the battery register reads '0x0A' (mains off) instead of '0x0B'. */
  readonly batteryOff?: readonly Span[];
  /** Minute spans [from, to) where the agitator reports 0 instead of 1. */
  readonly agitatorStops?: readonly Span[];
  /** Amplitude of the fixed ± volume noise pattern, litres. @default 5 */
  readonly noise?: number;
  /** Last word on each reading (minute = minutes since start). */
  readonly map?: (r: Reading, minute: number) => Reading;
}

const within = (spans: readonly Span[] | undefined, m: number): boolean => (spans ?? []).some(([from, to]) => m >= from && m < to);

/** A fixed pattern in [-1, 1] (not random: traces must be the same on every run). */
const pattern = (m: number): number => (((m * 7_919) % 11) - 5) / 5;

const milkingState = (m: number, som: number, eom: number, end: number): StateMachine | null =>
  m < som || m >= end ? null : m < som + 5 ? 'som' : m < eom ? 'milking' : 'eom';

/**
 * Days of one-minute readings. Each day: storage from the night before until the tanker empties
 * the vat (1,000 L/min from minute 180), the vat empty ('empty' state) with a wash (CIP) at
 * 201–221, a morning and an afternoon milking of 6,000 L each, storage in between and after.
 */
export const trace = (options: TraceOptions = {}): Reading[] => {
  const { days = 1, start = TRACE_START, startVolume = 8_000, noise = 5 } = options;
  const out: Reading[] = [];
  let dayStartVolume = startVolume;
  for (let d = 0; d < days; d++) {
    let volume = dayStartVolume;
    for (let dm = 0; dm < DAY.minutes; dm++) {
      const m = d * DAY.minutes + dm;
      const morning = milkingState(dm, DAY.morningMilking.som, DAY.morningMilking.eom, DAY.morningMilking.end);
      const afternoon = milkingState(dm, DAY.afternoonMilking.som, DAY.afternoonMilking.eom, DAY.afternoonMilking.end);
      const milking = morning ?? afternoon;
      if (dm > DAY.collectionFrom && dm < DAY.morningMilking.som) volume = Math.max(0, volume - DAY.pumpLitresPerMin);
      if (milking !== null && dm !== DAY.morningMilking.som && dm !== DAY.afternoonMilking.som) volume += DAY.milkingLitres / 120;
      const empty = volume === 0 && milking === null;
      const state: StateMachine = milking ?? (empty ? 'empty' : 'storage');
      const sinceMilking = Math.min(Math.abs(dm - DAY.morningMilking.end), Math.abs(dm - DAY.afternoonMilking.end));
      const temp1 = empty ? 14 : milking !== null ? 11 : 3.8 + 7 * Math.exp(-sinceMilking / 45);
      const temp5 = dm >= DAY.cipFrom && dm < DAY.cipTo - 1 ? 70 : dm === DAY.cipTo - 1 ? 38 : 18;
      const measured = Math.max(0, Math.round(volume + (volume > 0 ? noise * pattern(m) : 0)));
      if (within(options.outages, m)) continue;
      const r = reading({
        published_at: at(m, 0, start),
        milk_level: null,
        milk_volume: measured,
        temp1: Math.round(temp1 * 100) / 100,
        temp2: milking !== null ? 34 : 15,
        temp3: milking !== null ? 12 : 15,
        temp4: 15,
        temp5,
        agitator_status: within(options.agitatorStops, m) ? 0 : 1,
        state_machine: state,
        battery: within(options.batteryOff, m) ? '0x0A' : '0x0B',
      });
      out.push(options.map ? options.map(r, m) : r);
    }
    dayStartVolume = volume;
  }
  return out;
};
