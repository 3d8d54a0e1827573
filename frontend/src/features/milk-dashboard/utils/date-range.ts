import { MAX_RANGE_DAYS } from '@shared/constants';
import { addDays, daysFrom } from '@shared/time/local-day';
import { NO_MORE_DATA } from '@shared/api/range';

/** 'DD/MM/YYYY' (§2.5 picker) → 'YYYY-MM-DD', or undefined when it is not a calendar day. */
export const parseDayText = (text: string): string | undefined => {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return undefined;
  const day = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  const d = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day ? undefined : day;
};

/** The picker's default: the last 2 days, ending today (farm-local). */
export const defaultDays = (today: string): { readonly startDate: string; readonly endDate: string } => ({ startDate: addDays(today, -1), endDate: today });

/**
 * The picker's rules (§2.5, shared/api/range.ts on the server): both days readable, the end not
 * before the start, at most 30 days after it, neither in the future.
 */
export const checkDays = (fromText: string, toText: string, today: string): { ok: true; startDate: string; endDate: string } | { ok: false; message: string } => {
  const startDate = parseDayText(fromText);
  const endDate = parseDayText(toText);
  if (!startDate) return { ok: false, message: 'From must be a date as DD/MM/YYYY.' };
  if (!endDate) return { ok: false, message: 'To must be a date as DD/MM/YYYY.' };
  if (endDate < startDate) return { ok: false, message: 'To must not be before From.' };
  if (daysFrom(startDate, endDate) > MAX_RANGE_DAYS) return { ok: false, message: `The range may be at most ${MAX_RANGE_DAYS} days.` };
  if (endDate > today) return { ok: false, message: NO_MORE_DATA };
  return { ok: true, startDate, endDate };
};
