import { queryOptions } from '@tanstack/react-query';
import { milkQualityContracts, type MilkData, type MilkView } from '@shared/api/actions/milk-quality';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError, errorTextOf } from '../../../lib/api-error';

export type { MilkData, MilkView };

/** What the form asks for (operator §7: supplyNumber, vatNumber, fromDate, toDate as YYYY-MM-DD). */
export interface MilkLookup {
  readonly supplyNumber: string;
  readonly vatNumber: number;
  readonly fromDate: string;
  readonly toDate: string;
}

const CONTRACT = { milkquality: milkQualityContracts.MILK_QUALITY_DATA, westlands: milkQualityContracts.WESTLANDS_DATA } as const;

/**
 * MILK_QUALITY_DATA or WESTLANDS_DATA. The screen shows a failure beside the form (a supply number
 * of another supplier is the server's 403 with its reason), so the call takes its own onError.
 * A past range does not change: it is not refetched.
 */
export const milkDataQuery = (client: ApiClient, view: MilkView, lookup: MilkLookup) =>
  queryOptions({
    queryKey: ['milk-data', view, lookup],
    queryFn: ({ signal }) => client.call(CONTRACT[view], { ...lookup }, { signal, onError: () => undefined }),
    retry: false,
    staleTime: 60_000,
  });

/** WESTLANDS_FARMS: the tabs of the Westlands view. */
export const westlandsFarmsQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['westlands-farms'],
    queryFn: ({ signal }) => client.call(milkQualityContracts.WESTLANDS_FARMS, {}, { signal }),
  });

/** MILK_DATA_LOOKUPS (Admin): who looked at which farm's milk data, newest first. */
export const lookupsLogQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['milk-data-lookups'],
    queryFn: ({ signal }) => client.call(milkQualityContracts.MILK_DATA_LOOKUPS, {}, { signal }),
  });

/**
 * The words for a failed lookup: the server's own reason for a refusal (403: 'WES999 is not a
 * Westlands supply number.'), which the general catalogue would show as 'Server Error!'.
 */
export const lookupErrorText = (error: unknown): string => {
  if (error instanceof ApiError && error.status === 403 && error.serverMessage !== undefined) {
    return typeof error.serverMessage === 'string' ? error.serverMessage : error.serverMessage.join(' ');
  }
  return errorTextOf(error, 'The milk data could not be loaded.');
};
