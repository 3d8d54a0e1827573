/**
 * Deterministic randomness for the simulator: mulberry32 (a 32-bit state, so a vat's generator
 * is saved with its model state and a restart continues the same sequence) and FNV-1a to derive
 * seeds from names (device, farm, date).
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** The generator's state, to save and restore with createRng(state). */
  state(): number;
}

export const createRng = (seed: number): Rng => {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    state: () => a,
  };
};

/** FNV-1a, 32 bits. */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i += 1) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

export const uniform = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng.next();
/** Symmetric noise in [-amplitude, amplitude]. */
export const jitter = (rng: Rng, amplitude: number): number => (rng.next() * 2 - 1) * amplitude;
export const intBetween = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng.next() * (hi - lo + 1));
