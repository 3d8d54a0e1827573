import { MAX_RANGE_DAYS } from '@shared/constants';
import { addDays, daysFrom } from '@shared/time/local-day';
import { NO_MORE_DATA } from '@shared/api/range';
import { parsePickerDay } from '../../../lib/time-format';

/** The picker's default: the last 2 days, ending today (farm-local). */
export const defaultDays = (today: string): { readonly startDate: string; readonly endDate: string } => ({ startDate: addDays(today, -1), endDate: today });

/**
 * The picker's rules (§2.5, shared/api/range.ts on the server): both days readable, the end not
 * before the start, at most 30 days after it, neither in the future.
 */
export const checkDays = (fromText: string, toText: string, today: string): { ok: true; startDate: string; endDate: string } | { ok: false; message: string } => {
  const startDate = parsePickerDay(fromText);
  const endDate = parsePickerDay(toText);
  if (!startDate) return { ok: false, message: 'From must be a date as DD/MM/YYYY.' };
  if (!endDate) return { ok: false, message: 'To must be a date as DD/MM/YYYY.' };
  if (endDate < startDate) return { ok: false, message: 'To must not be before From.' };
  if (daysFrom(startDate, endDate) > MAX_RANGE_DAYS) return { ok: false, message: `The range may be at most ${MAX_RANGE_DAYS} days.` };
  if (endDate > today) return { ok: false, message: NO_MORE_DATA };
  return { ok: true, startDate, endDate };
};
