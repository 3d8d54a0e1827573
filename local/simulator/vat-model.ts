import type { StateMachine, TelemetryMessageInput } from '../../shared/telemetry/device-message';
import type { VatConfig } from '../../shared/telemetry/reading';
import { RANDOM_FAULT_KINDS, RANDOM_FAULT_MINUTES, WEAK_SIGNAL, effectsAt, startsAt, type ActiveFault, type FaultKind, type RandomFaultKind } from './faults';
import { createRng, hashString, intBetween, jitter, uniform, type Rng } from './random';

/**
 * A physical model of one milk vat, advanced one simulated minute at a time. Pure and
 * deterministic: the same config, seed and times give the same messages, and the whole state is
 * plain JSON (saved by the driver, so a restart continues the series where it stopped).
 *
 * The day: two milkings (about 05:30 and 15:30 farm time, 1.5-2.5 h, 35-45 % of the vat each)
 * with milk at ~35 °C through a plate cooler fed by ~14 °C water; refrigeration with a 3.7-4.6 °C
 * thermostat once the milk covers the base (about 5 % of the vat); the agitator runs while
 * milking, refrigerating or collecting and otherwise 5 minutes in 30; a collection when the next
 * milking would overflow the vat (so every day or two), pumped out at ~1,500 L/min, then a CIP
 * wash (~73 °C on temp5 for 20-30 min).
 */

const MINUTE = 60_000;

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

export interface VatModel {
  /** Advances to simTime (a later minute) and returns the device's message; undefined while offline. */
  step(simTime: Date | number): TelemetryMessageInput | undefined;
  /** The next minute this vat publishes at, given it has not started yet or its last step. */
  nextTime(from?: number): number;
  inject(kind: FaultKind, minutes: number, from: number): ActiveFault;
  activeFaults(at: number): ActiveFault[];
  /** A copy of the state to save. */
  state(): VatModelState;
  /** The simulated litres in the vat (for tests; the device itself only reports radar distance). */
  volume(): number;
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

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The quality estimate (farmer §3, §9 bands: Excellent up to 4.3): fresh milk starts at 3.6 and
 * the estimate grows with time in the vat, doubling its pace with every 4 °C over 4 °C. Cold
 * milk stays Excellent for days; a vat left warm for hours climbs toward the risk bands.
 */
const FRESH_CFU = 3.6;
const cfuGrowthPerMinute = (temp: number) => 0.00008 * 2 ** ((Math.max(0, temp) - 4) / 4);
/** When no tanker is due yet, the estimate at pickup looks a day ahead. */
const PICKUP_LOOKAHEAD_MINUTES = 24 * 60;
const toward = (x: number, target: number, tauMinutes: number) => x + (target - x) / tauMinutes;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Specific heat of milk, kJ/(L·K). */
const MILK_HEAT = 3.9;
const THERMOSTAT_ON = 4.6;
const THERMOSTAT_OFF = 3.7;
const PUMP_LITRES_PER_MINUTE = 1_500;

export const createVatModel = (config: VatModelConfig, saved?: VatModelState): VatModel => {
  const { vat, timezone } = config;
  const size = vat.vat_size;
  const area = (Math.PI * vat.vat_diameter ** 2) / 4_000_000; // litres per mm of depth
  const maxVolume = Math.max(size, (vat.vat_max_height - 40 - vat.wedgeHeight) * area + vat.vat_volume_offset);
  const basepad = 0.05 * size;
  const deviceHash = hashString(`${config.seed}|${config.device}`);
  const traits = createRng(deviceHash ^ 0x5bd1e995);
  const secondOffset = Math.floor(traits.next() * 60);
  const rpmBase = uniform(traits, 100, 115);
  const fridgeKw = 0.0028 * size * uniform(traits, 0.92, 1.08);
  const agitatorOffset = Math.floor(traits.next() * 30);
  const signalBase = { strength: uniform(traits, 55, 85), quality: uniform(traits, 62, 90) };

  const s: VatModelState = saved
    ? (structuredClone(saved) as VatModelState)
    : {
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
      };

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
  // Weather: warmer and cooler spells over days, smooth (no step at midnight), the same for a farm's vats.
  const weatherPhase = (hashString(`${config.farmKey}|weather`) / 2 ** 32) * 2 * Math.PI;
  const dayOffset = (t: number) => {
    const days = t / 86_400_000;
    return 1.4 * Math.sin((2 * Math.PI * days) / 3.3 + weatherPhase) + 0.8 * Math.sin((2 * Math.PI * days) / 5.1 + 2 * weatherPhase);
  };

  const levelOf = (litres: number): number =>
    litres <= 0 ? vat.wedgeHeight / 2 : vat.wedgeHeight + Math.max(0, litres - vat.vat_volume_offset) / area;

  const maybeRandomFault = (t: number, rng: Rng) => {
    const perDay = config.randomFaultsPerDay ?? 0;
    if (perDay <= 0) return;
    // Draw every minute whether or not a fault is going on, so the sequence does not depend on faults.
    const draw = rng.next();
    const kind = RANDOM_FAULT_KINDS[Math.floor(rng.next() * RANDOM_FAULT_KINDS.length)] as RandomFaultKind;
    const [lo, hi] = RANDOM_FAULT_MINUTES[kind];
    const minutes = intBetween(rng, lo, hi);
    if (draw >= perDay / 1440 || s.faults.some((f) => f.until > t)) return;
    // A warm plate only shows while milk flows through it.
    if (kind === 'warm_plate' && s.phase !== 'milking') return;
    s.faults.push({ kind, from: t, until: t + minutes * MINUTE });
  };

  const advance = (t: number): TelemetryMessageInput | undefined => {
    const rng = createRng(s.rng);
    const frng = createRng(s.faultRng);
    const local = localTime(timezone, t);
    maybeRandomFault(t, frng);
    s.faults = s.faults.filter((f) => f.until > t - MINUTE);
    const fx = effectsAt(s.faults, t);

    const hour = local.minuteOfDay / 60;
    const ambient = 15 + 7 * Math.sin((2 * Math.PI * (hour - 9)) / 24) + dayOffset(t) + jitter(rng, 0.15);
    const waterIn = 13.6 + 0.12 * (ambient - 15) + jitter(rng, 0.15);

    let event: 'som' | 'eom' | undefined;
    const washing = s.cip !== null && t >= s.cip.from && t < s.cip.until;

    // Milking starts at the farm's session time (late, shortened by nothing, if the vat was busy).
    if (s.phase === 'idle' && !washing) {
      for (const session of sessionsOf(local.dateKey)) {
        const inWindow = local.minuteOfDay >= session.start && local.minuteOfDay < session.start + session.minutes;
        if (inWindow && s.lastSession !== session.id) {
          s.phase = 'milking';
          s.lastSession = session.id;
          s.milking = { session: session.id, start: t, end: t + (session.minutes - 1) * MINUTE, litres: session.fraction * size };
          s.collectAt = null;
          event = 'som';
          break;
        }
      }
    }

    if (s.phase === 'milking' && s.milking) {
      const m = s.milking;
      const total = (m.end - m.start) / MINUTE + 1;
      const f = (t - m.start) / MINUTE / total;
      // Flow tails off as the herd goes through: 1.25 → 0.75 of the mean.
      let inflow = (m.litres / total) * (1.25 - 0.5 * f) * (1 + jitter(rng, 0.08));
      s.milkIn = toward(s.milkIn, 35 + jitter(rng, 0.4), 2);
      // A working plate cooler sends the milk on 2-3 °C above its water (at most about 17.7 °C on a
      // warm afternoon, under the §9 default warm-plate alert of 18 °C); a warm plate about 30 °C.
      const plate = fx.warmPlate ? 30 + jitter(rng, 1.2) : waterIn + 2 + 1.0 * f + jitter(rng, 0.3);
      s.temp3 = toward(s.temp3, plate, 2.5);
      s.temp2 = s.temp3 + 0.4 + jitter(rng, 0.15);
      inflow = Math.min(inflow, maxVolume - s.volume);
      if (inflow > 0) {
        s.temp1 = (s.volume * s.temp1 + inflow * s.temp2) / (s.volume + inflow);
        s.volume += inflow;
      }
      if (t >= m.end) {
        event = 'eom';
        s.phase = 'idle';
        s.milking = null;
        s.milkingsSinceCollection += 1;
        // The tanker comes before the next milking would overflow the vat (every day or two).
        if (s.volume + 0.46 * size > size || s.milkingsSinceCollection >= 4) s.collectAt = t + intBetween(rng, 45, 240) * MINUTE;
      }
    } else {
      s.milkIn = toward(s.milkIn, ambient, 20);
      s.temp3 = toward(s.temp3, ambient, 25);
      s.temp2 = toward(s.temp2, ambient, 25);
    }

    // Collection: the driver agitates for 5 minutes, then pumps the vat out; a CIP wash follows.
    let pumping = false;
    if (s.phase === 'idle' && s.collectAt !== null && t >= s.collectAt) {
      s.phase = 'collecting';
      s.collectStart = t;
      s.collectAt = null;
    }
    if (s.phase === 'collecting' && s.collectStart !== null && t - s.collectStart >= 5 * MINUTE) {
      pumping = true;
      s.volume -= PUMP_LITRES_PER_MINUTE * uniform(rng, 0.93, 1.07);
      if (s.volume < 25) {
        s.volume = 0;
        s.phase = 'idle';
        s.collectStart = null;
        s.milkingsSinceCollection = 0;
        const from = t + intBetween(rng, 10, 30) * MINUTE;
        s.cip = { from, until: from + intBetween(rng, 20, 30) * MINUTE };
      }
    }
    if (s.cip && t >= s.cip.until + 60 * MINUTE) s.cip = null;

    // CIP line: hot wash water, else it settles to the dairy's temperature.
    s.temp5 = washing ? toward(s.temp5, 73 + jitter(rng, 1), 2) : toward(s.temp5, ambient + 1, 8);

    // Refrigeration: thermostat, only with the base covered, never during a collection.
    // A Vat-Man Auto controller switched off runs neither the refrigeration nor the agitator.
    const controllerOff = config.controller === true && fx.controller === 'off';
    const fridgeAllowed = !fx.powerCut && !fx.chillerOff && !controllerOff && s.phase !== 'collecting' && s.volume > basepad;
    if (!fridgeAllowed) s.fridgeOn = false;
    else if (s.temp1 > THERMOSTAT_ON || (s.phase === 'milking' && s.temp1 > THERMOSTAT_OFF)) s.fridgeOn = true;
    else if (s.temp1 < THERMOSTAT_OFF) s.fridgeOn = false;

    const cycling = (Math.floor(t / MINUTE) + agitatorOffset) % 30 < 5;
    const agitatorWanted = s.phase === 'milking' || s.phase === 'collecting' || s.fridgeOn || (s.volume > 0 && cycling);
    const agitatorOn = agitatorWanted && !fx.powerCut && !fx.agitatorStopped && !controllerOff;

    if (s.volume > 0) {
      s.temp1 = toward(s.temp1, ambient, 900);
      if (s.fridgeOn) {
        const rate = Math.min(0.25, (fridgeKw * 60) / (s.volume * MILK_HEAT));
        s.temp1 -= rate * (agitatorOn ? 1 : 0.7); // unstirred milk layers: the evaporator cools less of it
      }
    } else {
      s.temp1 = washing ? toward(s.temp1, 0.55 * s.temp5, 6) : toward(s.temp1, ambient, 90);
    }

    // Quality: an empty vat starts afresh; milk in it ages with its temperature (physics, so offline too).
    const hasMilk = s.volume > 0;
    s.cfu = hasMilk ? Math.min(8, (s.cfu ?? FRESH_CFU) + cfuGrowthPerMinute(s.temp1)) : FRESH_CFU;
    const pickupMinutes = s.collectAt !== null ? Math.max(0, (s.collectAt - t) / MINUTE) : PICKUP_LOOKAHEAD_MINUTES;
    const quality = config.quality && hasMilk ? { currentEstCFU: round2(s.cfu), pickupEstCFU: round2(Math.min(8, s.cfu + cfuGrowthPerMinute(s.temp1) * pickupMinutes)) } : undefined;

    // Signal: a slow random walk around the site's level; a reconnect after being offline.
    s.signal.strength = Math.round(clamp(s.signal.strength + jitter(rng, 1.5) + (signalBase.strength - s.signal.strength) * 0.05, 5, 99));
    s.signal.quality = Math.round(clamp(s.signal.quality + jitter(rng, 1.5) + (signalBase.quality - s.signal.quality) * 0.05, 5, 99));
    const radarNoise = jitter(rng, 2);
    const pressureNoise = jitter(rng, 2);
    const rpmNoise = jitter(rng, 3);
    s.rng = rng.state();
    s.faultRng = frng.state();

    if (fx.offline) {
      s.wasOffline = true;
      return undefined;
    }
    if (s.wasOffline) {
      s.wasOffline = false;
      s.signal.disconnects += 1;
    }

    const milkingState: StateMachine | undefined =
      event ?? (s.phase === 'milking' ? 'milking' : undefined);
    const stateMachine: StateMachine = milkingState ?? (s.volume < Math.max(30, 0.01 * size) ? 'empty' : 'storage');
    const pressure = s.phase === 'milking' ? 48 : pumping ? 85 : washing ? 140 : 0.6;
    s.seq += 1;
    return {
      published_at: new Date(t).toISOString(),
      message_type: startsAt(s.faults, t) ? 'AM' : event ? 'EM' : 'DATA',
      radar_distance: clamp(Math.round(vat.vat_max_height - levelOf(s.volume) + radarNoise + fx.radarDriftMm), 0, 10_000),
      temp1: fx.sensorBoardMissing ? null : round1(s.temp1),
      temp2: round1(s.temp2),
      temp3: round1(s.temp3),
      temp4: round1(ambient),
      temp5: round1(s.temp5),
      pressure: round1(Math.max(0, pressure + pressureNoise * (pressure > 1 ? 1 : 0.25))),
      shaft_rpm: agitatorOn ? Math.round(rpmBase + rpmNoise) : 0,
      agitator_status: agitatorOn ? 1 : 0,
      state_machine: stateMachine,
      battery: { status: fx.powerCut ? '0x0A' : '0x0B' },
      cooler: { milk_in: round1(s.milkIn), water_in: round1(waterIn) },
      firmware_version: '41',
      system_version: '3.2.1',
      signal: fx.weakSignal ? { ...s.signal, ...WEAK_SIGNAL } : { ...s.signal },
      seq: s.seq,
      ...(config.controller && fx.controller !== null ? { controller_status: fx.controller } : {}),
      ...(quality ? { quality } : {}),
    };
  };

  /** Longest gap filled minute by minute; beyond it the vat restarts its day from the gap's end. */
  const MAX_FILL = 3 * 24 * 60 * MINUTE;

  return {
    step(simTime) {
      const t = typeof simTime === 'number' ? simTime : simTime.getTime();
      if (s.t !== null && t <= s.t) throw new Error(`${config.device}: simulated time must advance (${new Date(t).toISOString()} after ${new Date(s.t).toISOString()})`);
      // A gap (the simulator was not running): the vat carried on; the platform saw an outage.
      if (s.t !== null && t - s.t > 1.5 * MINUTE) {
        let tt = Math.max(s.t + MINUTE, t - MAX_FILL);
        for (; tt <= t - MINUTE; tt += MINUTE) advance(tt);
        s.wasOffline = true;
      }
      s.t = t;
      return advance(t);
    },
    nextTime(from) {
      if (s.t !== null) return s.t + MINUTE;
      const base = Math.floor((from ?? Date.now()) / MINUTE) * MINUTE + secondOffset * 1000;
      return from !== undefined && base < from ? base + MINUTE : base;
    },
    inject(kind, minutes, from) {
      const fault = { kind, from, until: from + minutes * MINUTE };
      s.faults.push(fault);
      return fault;
    },
    activeFaults: (at) => s.faults.filter((f) => f.until > at).map((f) => ({ ...f })),
    state: () => structuredClone(s),
    volume: () => s.volume,
  };
};
