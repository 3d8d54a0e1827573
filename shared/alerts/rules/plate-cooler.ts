import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import type { ReadingRule } from './step';

/** Plate cooler (103): the milk leaving the plate (temp3) over the farmer's `milk_warm_plate` while milk flows. */
export const plateCooler: ReadingRule = (s, r, ctx) => {
  const plate = r.reading.temp3;
  if (!r.milkingNow || plate === null) return;
  const limit = ctx.settings.milk_warm_plate;
  s.track(ALERT.plateWarm, r.t, { over: plate > limit, normal: plate <= limit - 1, raiseMs: ALERT_TUNING.plateRaiseMs, clearMs: ALERT_TUNING.plateRaiseMs, data: r.data, unbroken: true });
};
