import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type lastAllColumnsResponseSchema, type lastAllResponseSchema } from '@shared/api/actions/farmer-activity';
import { CHART_POINTS_MAX } from '@shared/api/fields';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import { lastAllCursor, mergeLastAllColumns } from '@shared/telemetry/range-merge';
import type { ApiClient } from '../../../lib/api-client';

/** A vat's range in the spec's rows (data.csv). */
export type VatLastAll = z.infer<typeof lastAllResponseSchema>[number];
/** A vat's range in the columnar form the charts draw from (form=columns, decision 111). */
export type VatLastAllColumns = z.infer<typeof lastAllColumnsResponseSchema>[number];

type Answer = z.infer<typeof lastAllResponseSchema> | z.infer<typeof lastAllColumnsResponseSchema>;
/** The answer in the form asked for: a server that sent the other form is a wrong answer. */
const rowsOf = (answer: Answer): VatLastAll[] => {
  if (answer.every((v): v is VatLastAll => 'detailData' in v)) return answer;
  throw new Error('FARMER_DASHBOARD_LAST_ALL answered columns where rows were asked for');
};
const columnsOf = (answer: Answer): VatLastAllColumns[] => {
  if (answer.every((v): v is VatLastAllColumns => 'columns' in v)) return answer;
  throw new Error('FARMER_DASHBOARD_LAST_ALL answered rows where columns were asked for');
};

/** Which range the charts show: a page of 2 days (page 1 = the last 2 days) or the Pro/Auto picker's days. */
export type ChartRange = { readonly kind: 'page'; readonly page: number } | { readonly kind: 'dates'; readonly startDate: string; readonly endDate: string };

/** Whether a range reaches the present (`today` is the farm's local day, YYYY-MM-DD). */
export const isLiveRange = (range: ChartRange, today: string): boolean => (range.kind === 'page' ? range.page === 1 : range.endDate >= today);

const rangeFields = (range: ChartRange) =>
  range.kind === 'page' ? { page_index: range.page } : { startDate: range.startDate, endDate: range.endDate };

/**
 * The range at the finest the server gives (data.csv, farmer §2.5): the charts' answer holds two
 * readings a pixel, the file should hold as many readings as an answer may.
 */
export const fetchCsvRange = async (client: ApiClient, farmId: string, range: ChartRange) =>
  rowsOf(await client.call(farmerActivityContracts.FARMER_DASHBOARD_LAST_ALL, { farm: farmId, ...rangeFields(range), points: CHART_POINTS_MAX }));

/**
 * FARMER_DASHBOARD_LAST_ALL (farmer §2.5, §2.17). Errors ('No more data!', a range the server refuses)
 * are shown beside the range controls, so the call takes its own onError instead of the snackbar.
 * Only a live range (page 1, or picked days up to today) refreshes every 120 s; an older one does not change.
 * A refresh asks only for what is newer than the answer it has (`since`) and merges it in;
 * when the vats changed in between it asks for the whole range. `points` is the charts' width in
 * pixels: the server answers at most two readings a pixel (min/max buckets, peaks and alarm lines kept).
 * The charts ask for the columnar form (a third of the rows' JSON) and draw from its arrays.
 */
/** The key of every range answer of a farm (the start of each range's own key). */
export const dashboardLastAllFarmKey = (farmId: string) => ['farmer-dashboard-last-all', farmId] as const;

export const dashboardLastAllQuery = (client: ApiClient, farmId: string, range: ChartRange, today: string, points?: number) =>
  queryOptions({
    queryKey: [...dashboardLastAllFarmKey(farmId), range, points],
    queryFn: async ({ signal, client: queries, queryKey }) => {
      const fetchRange = async (since?: string) =>
        columnsOf(
          await client.call(
            farmerActivityContracts.FARMER_DASHBOARD_LAST_ALL,
            { farm: farmId, ...rangeFields(range), form: 'columns', ...(points ? { points } : {}), ...(since ? { since } : {}) },
            { signal, onError: () => undefined },
          ),
        );
      const previous = isLiveRange(range, today) ? queries.getQueryData<VatLastAllColumns[]>(queryKey) : undefined;
      const since = previous ? lastAllCursor(previous) : undefined;
      if (!previous || !since) return fetchRange();
      return mergeLastAllColumns(previous, await fetchRange(since)) ?? fetchRange();
    },
    refetchInterval: isLiveRange(range, today) ? DASHBOARD_REFRESH_MS : false,
    retry: false,
  });
