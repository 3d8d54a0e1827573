import { RANDOM_FAULT_KINDS, RANDOM_FAULT_MINUTES, type FaultEffects, type RandomFaultKind } from './faults';
import { intBetween, jitter, uniform, type Rng } from './random';
import { MINUTE, PUMP_LITRES_PER_MINUTE, toward, type VatModelState } from './vat-state';

/**
 * A milking minute: milk flows in through the plate cooler, tailing off as the herd goes through;
 * 'eom' at its last minute. Outside a milking the lines settle toward the dairy's temperature.
 */
export const milkingMinute = (s: VatModelState, t: number, rng: Rng, fx: FaultEffects, env: { readonly waterIn: number; readonly ambient: number; readonly size: number; readonly maxVolume: number }): 'eom' | undefined => {
  const { waterIn, ambient, size, maxVolume } = env;
  let event: 'eom' | undefined;
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

  return event;
};

/** A collection minute: the driver agitates for 5 minutes, then pumps the vat out; a CIP wash follows. Answers whether the pump runs. */
export const collectionMinute = (s: VatModelState, t: number, rng: Rng): boolean => {
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

  return pumping;
};

/** A random fault (simulator option randomFaults) at this minute, with the chance of `perDay` a day; never two at once. */
export const maybeRandomFault = (s: VatModelState, t: number, rng: Rng, perDay: number) => {
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
