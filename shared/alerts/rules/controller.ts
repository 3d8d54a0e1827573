import { ALERT_TUNING } from '../tuning';
import { ALERT } from '../types';
import type { ReadingRule } from './step';

/**
 * The Vat-Man Auto controller's selector (farmer §3: 112 VatControl status unknown, 113
 * ManualOverride, 114 OffPosition), Auto farms only. Manual and off are raised only while the vat
 * holds milk (or a milking runs): an empty vat is switched off or run by hand for washing as a
 * matter of course. A reading without a status says nothing about manual or off; only the regular
 * DATA reading is expected to carry one, so only its silence counts towards 112.
 */
export const controller: ReadingRule = (s, r, ctx) => {
  if (!ctx.auto) return;
  const T = ALERT_TUNING;
  const { t, data } = r;
  const milk = r.hasMilk || r.milkingNow;
  const status = r.reading.controller_status;
  const known = status === 'auto' || status === 'manual' || status === 'off';
  if (known || r.reading.message_type === 'DATA') {
    s.track(ALERT.controllerUnknown, t, { over: !known, normal: known, raiseMs: T.controllerUnknownMs, clearMs: 0, data });
  }
  if (!known) return;
  s.track(ALERT.manualOverride, t, { over: status === 'manual' && milk, normal: status !== 'manual' || !milk, raiseMs: T.controllerRaiseMs, clearMs: 0, data });
  s.track(ALERT.offPosition, t, { over: status === 'off' && milk, normal: status !== 'off' || !milk, raiseMs: T.controllerRaiseMs, clearMs: 0, data });
};
