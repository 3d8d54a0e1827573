import { OUTAGE_GAP_MINUTES } from '../constants';
import type { NotificationType } from './types';

const MIN = 60_000;

/** Hold-offs and hysteresis (docs/areas/alerts.md). */
export const ALERT_TUNING = {
  /** Temperature rules: over the limit for 2 minutes (two readings) after the deadline. */
  tempRaiseMs: 2 * MIN,
  /** …and back to normal only when 0.3 °C under the limit for 10 minutes. */
  tempClearMargin: 0.3,
  tempClearMs: 10 * MIN,
  /**
   * The plate outlet runs a few degrees over the water feeding it, so on a warm day it can sit
   * near the setting for a whole milking: it must be over it for 10 unbroken minutes.
   */
  plateRaiseMs: 10 * MIN,
  coldRaiseMs: 10 * MIN,
  volumeRaiseMs: 2 * MIN,
  /** Volume clears 2 points of the vat under its threshold. */
  volumeClearPercent: 2,
  /** The agitator normally rests 25 minutes in 30 when not refrigerating: 40 minutes is a fault. */
  agitatorStopMs: 40 * MIN,
  /** No reading for this long is OFFLINE (farmer §9's outage band: over 15 minutes). */
  offlineMs: OUTAGE_GAP_MINUTES * MIN,
  /** A fall of this share of the vat between readings, outside milking, is a tanker pumping. */
  collectionDropPercent: 1,
  /** Milkings kept for the duration variance. */
  milkingHistory: 6,
  /** Below 5 % of the vat counts as empty (farmer §4). */
  emptyPercent: 5,
  qualityClearMargin: 0.1,
  /**
   * Vat-Man Auto controller (112-114): a selector turned to manual or off for a moment (a test,
   * a wash) is no fault; 5 minutes held is. A controller that stops reporting is unknown after
   * 10 minutes of regular (DATA) readings without a status.
   */
  controllerRaiseMs: 5 * MIN,
  controllerUnknownMs: 10 * MIN,
  /** A milking ending this much later than the same session usually ends is late (1201). */
  lateMilkingMinutes: 60,
  /**
   * Cooling at risk (105): the forecast past a deadline by over its margin (cooling-forecast.ts
   * RISK_MARGIN_MINUTES) for 10 minutes of readings; cleared once it is back on time (no margin)
   * for 10 minutes. Raised at most once per milking.
   */
  coolingRiskRaiseMs: 10 * MIN,
  coolingRiskClearMs: 10 * MIN,
  /** Ends within this of each other (minutes of day) are the same session (morning, afternoon). */
  sessionWindowMinutes: 180,
} as const;

/** Farmer §9 quality bands → dairy-company alert types. */
export const QUALITY_BANDS: readonly { readonly type: NotificationType; readonly over: number }[] = [
  { type: 1001, over: 4.3 },
  { type: 1002, over: 4.7 },
  { type: 1003, over: 5 },
  { type: 1004, over: 6 },
];

