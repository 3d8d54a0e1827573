import type { StateMachine, TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { WEAK_SIGNAL, effectsAt, startsAt, type ActiveFault, type FaultKind } from './faults';
import { createRng, hashString, jitter, uniform } from './random';
import { collectionMinute, maybeRandomFault, milkingMinute } from './vat-phases';
import {
  clamp,
  cfuGrowthPerMinute,
  farmSessions,
  FRESH_CFU,
  initialVatState,
  localTime,
  MILK_HEAT,
  MINUTE,
  PICKUP_LOOKAHEAD_MINUTES,
  round1,
  round2,
  THERMOSTAT_OFF,
  THERMOSTAT_ON,
  toward,
  type VatModelConfig,
  type VatModelState,
} from './vat-state';

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

  const s: VatModelState = saved ? (structuredClone(saved) as VatModelState) : initialVatState(config, deviceHash, signalBase);

  const sessionsOf = farmSessions(config);
  // Weather: warmer and cooler spells over days, smooth (no step at midnight), the same for a farm's vats.
  const weatherPhase = (hashString(`${config.farmKey}|weather`) / 2 ** 32) * 2 * Math.PI;
  const dayOffset = (t: number) => {
    const days = t / 86_400_000;
    return 1.4 * Math.sin((2 * Math.PI * days) / 3.3 + weatherPhase) + 0.8 * Math.sin((2 * Math.PI * days) / 5.1 + 2 * weatherPhase);
  };

  const levelOf = (litres: number): number =>
    litres <= 0 ? vat.wedgeHeight / 2 : vat.wedgeHeight + Math.max(0, litres - vat.vat_volume_offset) / area;

  const advance = (t: number): TelemetryMessageInput | undefined => {
    const rng = createRng(s.rng);
    const frng = createRng(s.faultRng);
    const local = localTime(timezone, t);
    maybeRandomFault(s, t, frng, config.randomFaultsPerDay ?? 0);
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

    event = milkingMinute(s, t, rng, fx, { waterIn, ambient, size, maxVolume }) ?? event;

    const pumping = collectionMinute(s, t, rng);
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
