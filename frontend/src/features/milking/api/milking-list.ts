import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type milkingListResponseSchema } from '@shared/api/actions/farmer-activity';
import type { ApiClient } from '../../../lib/api-client';

export type MilkingList = z.infer<typeof milkingListResponseSchema>;
export type MilkingItem = MilkingList['list'][number];

/**
 * FARMER_MILKING_LIST (farmer §2.6, §7): the farm's milkings of a 30-day page, newest first (page 1
 * is the last 30 days up to now). Errors are shown on the tab, so the call takes its own onError
 * instead of the snackbar.
 */
export const milkingListQuery = (client: ApiClient, farmId: string, page: number) =>
  queryOptions({
    queryKey: ['farmer-milking-list', farmId, page],
    queryFn: ({ signal }) =>
      client.call(farmerActivityContracts.FARMER_MILKING_LIST, { farm: farmId, page_index: page }, { signal, onError: () => undefined }),
    retry: false,
  });
