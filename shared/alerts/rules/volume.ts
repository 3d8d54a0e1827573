import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import type { ReadingRule } from './step';

/** Vat nearly full (201): the volume over the farmer's `milk_volume` per cent of the vat. */
export const volumeOver: ReadingRule = (s, r, ctx) => {
  const volume = r.reading.milk_volume;
  const size = ctx.vat.vat_size;
  if (volume === null || size <= 0) return;
  const pct = (volume / size) * 100;
  const limit = ctx.settings.milk_volume;
  s.track(ALERT.volume, r.t, { over: pct > limit, normal: pct < limit - ALERT_TUNING.volumeClearPercent, raiseMs: ALERT_TUNING.volumeRaiseMs, clearMs: ALERT_TUNING.volumeRaiseMs, data: r.data });
};
