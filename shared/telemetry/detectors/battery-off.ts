import { stepInterval } from './interval';
import type { LatestSlice, Step, StepInput } from './types';

export type BatteryOffState = LatestSlice;

/**
 * Battery-off period (operator §2 'Battery-off periods', §3 Battery record): from the first reading
 * with mains off (an even battery register, on_mains false) to the next reading on mains (odd).
 * A reading without a battery register (on_mains null) changes nothing.
 */
export const stepBatteryOff = (s: BatteryOffState, { reading: r }: StepInput): Step<BatteryOffState> =>
  stepInterval('battery_off', s, r, r.on_mains === false, r.on_mains === true);
