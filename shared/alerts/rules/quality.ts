import { ALERT_TUNING, QUALITY_BANDS } from '../tuning';
import { ALERT } from '../types';
import type { ReadingRule } from './step';

/**
 * The dairy company's milk quality (dairy-company farms, farmer §9 quality bands): the estimated
 * count over each band (1001-1004), and the agitator alert the quality model flags (1102) with its
 * outage percentage.
 */
export const quality: ReadingRule = (s, r, ctx) => {
  const q = r.reading.quality;
  if (!ctx.dairyCompany || !q) return;
  const T = ALERT_TUNING;
  const { t, data } = r;
  const value = q.currentEstCFU;
  if (value !== null && value !== undefined) {
    for (const band of QUALITY_BANDS) {
      s.track(band.type, t, { over: value > band.over, normal: value <= band.over - T.qualityClearMargin, raiseMs: 0, clearMs: T.tempClearMs, data, alert: { quality: { value } } });
    }
  }
  const ag = q.agitator;
  const percent = ag?.timeInVat ? Math.round(((ag.timeAgitatorStop ?? 0) / ag.timeInVat) * 1000) / 10 : undefined;
  s.track(ALERT.qualityAgitator, t, { over: q.alert === 2, normal: q.alert !== 2, raiseMs: 0, clearMs: T.tempClearMs, data, alert: percent === undefined ? {} : { quality: { agitator_outage_percent: percent } } });
};
