import { MAX_RANGE_DAYS, PAGING_STEP_DAYS } from '../constants';
import { addDays, daysFrom, localDayOf, localMidnight } from '../time/local-day';

/** Spec §8: "A time navigation past the present: 'No more data!'". */
export const NO_MORE_DATA = 'No more data!';
export const RANGE_TOO_LONG = `The range may be at most ${MAX_RANGE_DAYS} days.`;
/** A range's two date fields as the caller's action names them. */
interface RangeFields {
  readonly start: string;
  readonly end: string;
}
const DASHBOARD_FIELDS: RangeFields = { start: 'startDate', end: 'endDate' };
const rangeReversed = (f: RangeFields = DASHBOARD_FIELDS) => `${f.end} must not be before ${f.start}.`;
const rangeHalf = (f: RangeFields = DASHBOARD_FIELDS) => `Send ${f.start} and ${f.end} together.`;
export const RANGE_REVERSED = rangeReversed();
export const RANGE_HALF = rangeHalf();
export const RANGE_PRO_ONLY = 'The date range is for Vat-Man Pro and Vat-Man Auto farms.';
/** Lite farms page back by 2 days; far enough for any history kept, small enough for any clock. */
export const MAX_PAGE_INDEX = 1000;

interface RangeRequest {
  readonly startDate?: string | undefined;
  readonly endDate?: string | undefined;
  readonly page_index?: number | undefined;
}

/** A range as instants (UTC ISO) and as the farm-local days the farmer sees. */
export interface ResolvedRange {
  readonly from: string;
  readonly to: string;
  readonly startDate: string;
  readonly endDate: string;
  /** The page asked for, when the range came from paging. */
  readonly page_index: number | null;
}

export type RangeResult = { readonly ok: true; readonly range: ResolvedRange } | { readonly ok: false; readonly message: string };

interface RangeContext {
  readonly now: Date;
  /** The farm's IANA zone: startDate and endDate are its local days. */
  readonly timeZone: string;
  /** Whether the farm's package gets the date-range picker (Pro and Auto, farmer §6). */
  readonly datesAllowed: boolean;
  /** Length of a page (and of the default range). @default PAGING_STEP_DAYS */
  readonly pageDays?: number;
  /** The date fields' names in the caller's messages (MILK_QUALITY_DATA's are fromDate and toDate). @default startDate, endDate */
  readonly fields?: RangeFields;
}

/**
 * The dashboard's range rules (farmer §2.5, §9; operator §9), on the server as on the picker:
 * - startDate and endDate (YYYY-MM-DD, farm-local days) together: from local midnight starting
 *   startDate to the end of endDate (clipped at now); endDate not before startDate, at most 30 days
 *   after it ("the picker limits the end to at most 30 days after the start"), neither after
 *   today → 'No more data!'.
 * - otherwise page_index (default 1): page 1 is the last 2 days up to now, each next page 2 days
 *   further back; a page below 1 is past the present → 'No more data!'.
 */
export const resolveRange = (req: RangeRequest, ctx: RangeContext): RangeResult => {
  const now = ctx.now.getTime();
  const today = localDayOf(now, ctx.timeZone);
  const { startDate, endDate } = req;
  if (startDate !== undefined || endDate !== undefined) {
    if (startDate === undefined || endDate === undefined) return { ok: false, message: rangeHalf(ctx.fields) };
    if (!ctx.datesAllowed) return { ok: false, message: RANGE_PRO_ONLY };
    if (endDate < startDate) return { ok: false, message: rangeReversed(ctx.fields) };
    if (daysFrom(startDate, endDate) > MAX_RANGE_DAYS) return { ok: false, message: RANGE_TOO_LONG };
    if (startDate > today || endDate > today) return { ok: false, message: NO_MORE_DATA };
    const from = localMidnight(startDate, ctx.timeZone);
    const to = Math.min(localMidnight(addDays(endDate, 1), ctx.timeZone) - 1, now);
    return { ok: true, range: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), startDate, endDate, page_index: null } };
  }
  const page = req.page_index ?? 1;
  if (page < 1) return { ok: false, message: NO_MORE_DATA };
  if (page > MAX_PAGE_INDEX) return { ok: false, message: `page_index may be at most ${MAX_PAGE_INDEX}.` };
  const step = (ctx.pageDays ?? PAGING_STEP_DAYS) * 86_400_000;
  const to = now - (page - 1) * step;
  const from = to - step;
  return {
    ok: true,
    range: {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      startDate: localDayOf(from, ctx.timeZone),
      endDate: localDayOf(to, ctx.timeZone),
      page_index: page,
    },
  };
};

