import { stepInterval } from './interval';
import type { LatestSlice, Step, StepInput } from './types';

/**
 * A wash starts when the CIP line (temp5) goes above this. Between washes the line sits at shed
 * ambient, which stays below 40 °C even on a hot afternoon; a hot wash runs at 60 to 85 °C, so the
 * first reading of a wash is well above it.
 */
export const CIP_START_CELSIUS = 40;
/**
 * A wash ends when the line falls below this. The 10 °C of hysteresis keeps one wash one activity
 * when the line hovers around the start threshold (a warm rinse, a pause between hot wash and
 * acid rinse, probe jitter); the cold rinse at the end of a wash takes the line well below it.
 */
export const CIP_END_CELSIUS = 30;

export type CipState = LatestSlice;

/** Clean-in-place wash: temp5 above CIP_START_CELSIUS opens it, below CIP_END_CELSIUS closes it. */
export const stepCip = (s: CipState, { reading: r }: StepInput): Step<CipState> =>
  stepInterval('cip', s, r, r.temp5 !== null && r.temp5 > CIP_START_CELSIUS, r.temp5 !== null && r.temp5 < CIP_END_CELSIUS);
