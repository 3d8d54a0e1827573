import * as z from 'zod';
import { qualityBand, type QualityRisk } from '../../../components/charts/quality-bands';

/** §9 quality gauge (colony estimate): range 3 to 6.2, default 3; 4.85 when the alert is 2 with agitator data. */
const GAUGE_MIN = 3;
const GAUGE_MAX = 6.2;
const GAUGE_DEFAULT = 3;
const GAUGE_AGITATOR_ALERT = 4.85;

/** The reading's quality block as the device sends it (shared/telemetry/device-message.ts); the answer keeps it as a record. */
const qualitySchema = z.object({
  currentEstCFU: z.number().nullable().optional(),
  alert: z.number().nullable().optional(),
  agitator: z.object({}).passthrough().nullable().optional(),
});

interface QualityGauge {
  /** The estimate shown, or null when the vat has no quality reading. */
  readonly value: number | null;
  /** Where the needle sits, 0–100 % of the 3 to 6.2 range (the default 3 when there is no reading). */
  readonly percent: number;
  /** 'NONE' when there is no reading: grey, never a verdict. */
  readonly risk: QualityRisk | 'NONE';
  readonly label: string;
}

/** What the gauge says without an estimate: §9's default 3 is where the needle rests, not 'Excellent'. */
const NO_QUALITY_READING = 'No quality reading';

export const qualityGauge = (quality: unknown): QualityGauge => {
  const parsed = qualitySchema.safeParse(quality ?? {});
  const q = parsed.success ? parsed.data : {};
  const raw = q.alert === 2 && q.agitator ? GAUGE_AGITATOR_ALERT : q.currentEstCFU;
  if (raw === null || raw === undefined || !Number.isFinite(raw)) {
    return { value: null, percent: ((GAUGE_DEFAULT - GAUGE_MIN) / (GAUGE_MAX - GAUGE_MIN)) * 100, risk: 'NONE', label: NO_QUALITY_READING };
  }
  const value = raw;
  const band = qualityBand(value);
  const clamped = Math.min(GAUGE_MAX, Math.max(GAUGE_MIN, value));
  return {
    value,
    percent: ((clamped - GAUGE_MIN) / (GAUGE_MAX - GAUGE_MIN)) * 100,
    risk: band.risk,
    label: band.label,
  };
};
