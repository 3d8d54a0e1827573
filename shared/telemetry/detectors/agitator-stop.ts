import { stepInterval } from './interval';
import type { LatestSlice, Step, StepInput } from './types';

export type AgitatorStopState = LatestSlice;

/**
 * Agitator stop (farmer §4): "starts at status 0 and ends at the next status 1". A reading without
 * a status (null: the sensor reported nothing) neither starts nor ends one.
 */
export const stepAgitatorStop = (s: AgitatorStopState, { reading: r }: StepInput): Step<AgitatorStopState> =>
  stepInterval('agitator_stop', s, r, r.agitator_status === 0, r.agitator_status === 1);
