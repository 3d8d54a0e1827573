import type { LiveReading } from '@shared/live/protocol';
import type { VatLast } from '../../../lib/queries/dashboard-last';

type Point = NonNullable<VatLast['last']>;
/** What a push carries of a card's point; a null value is a field the device did not report. */
const CARRIED = ['milk_volume', 'milk_level', 'temp1', 'agitator_status', 'state_machine'] as const;

/**
 * The cards' answer (FARMER_DASHBOARD_LAST) with a pushed reading applied: the vat's newest point
 * takes the reading's time and the values the push carries (the server leaves unreported fields
 * out, so a null clears one); what the push does not carry (the other temperatures, the quality)
 * stays until the next refresh. An older or equal reading, or a vat not in the answer, changes
 * nothing: the same answer object is returned, so nothing renders again.
 */
export const applyLiveReading = (answer: readonly VatLast[] | undefined, reading: LiveReading): readonly VatLast[] | undefined => {
  if (!answer) return answer;
  const at = answer.findIndex((v) => v.device._id === reading.device);
  const vat = answer[at];
  if (!vat || (vat.last && vat.last.published_at >= reading.published_at)) return answer;
  const point: Record<string, unknown> = { ...(vat.last ?? {}), published_at: reading.published_at };
  for (const key of CARRIED) {
    const value = reading[key];
    if (value === null) delete point[key];
    else if (value !== undefined) point[key] = value;
  }
  return answer.map((v, i) => (i === at ? { ...v, last: point as Point } : v));
};
