import { NO_MORE_DATA, RANGE_HALF, RANGE_REVERSED, type RangeResult } from '../api/range';
import { addDays, daysFrom, localDayOf, localMidnight } from '../time/local-day';

/**
 * The compliance record's period. A dairy season runs 1 June to 31 May; without dates
 * the record covers the season the farm's today falls in, up to now. Dates are farm-local days, as
 * everywhere; a period is at most a season long (366 days) and may not start after today.
 */
const SEASON_START_MONTH_DAY = '06-01';
const MAX_COMPLIANCE_DAYS = 366;
export const COMPLIANCE_RANGE_TOO_LONG = `The period may be at most ${MAX_COMPLIANCE_DAYS} days (a season).`;

/** The season (1 June to 31 May) holding a farm-local day. */
export const seasonOf = (day: string): { startDate: string; endDate: string } => {
  const year = Number(day.slice(0, 4));
  const startYear = day.slice(5) >= SEASON_START_MONTH_DAY ? year : year - 1;
  const startDate = `${startYear}-${SEASON_START_MONTH_DAY}`;
  return { startDate, endDate: addDays(`${startYear + 1}-${SEASON_START_MONTH_DAY}`, -1) };
};

export const resolveCompliancePeriod = (req: { startDate?: string | undefined; endDate?: string | undefined }, now: Date, timeZone: string): RangeResult => {
  const today = localDayOf(now.getTime(), timeZone);
  if ((req.startDate === undefined) !== (req.endDate === undefined)) return { ok: false, message: RANGE_HALF };
  const { startDate, endDate } = req.startDate !== undefined && req.endDate !== undefined ? { startDate: req.startDate, endDate: req.endDate } : seasonOf(today);
  if (endDate < startDate) return { ok: false, message: RANGE_REVERSED };
  if (daysFrom(startDate, endDate) + 1 > MAX_COMPLIANCE_DAYS) return { ok: false, message: COMPLIANCE_RANGE_TOO_LONG };
  if (startDate > today) return { ok: false, message: NO_MORE_DATA };
  const from = localMidnight(startDate, timeZone);
  const to = Math.min(localMidnight(addDays(endDate, 1), timeZone) - 1, now.getTime());
  return { ok: true, range: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), startDate, endDate, page_index: null } };
};
