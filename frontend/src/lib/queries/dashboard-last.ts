import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type lastResponseSchema } from '@shared/api/actions/farmer-activity';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../api-client';
import { takeEarly } from '../early-call';

export type VatLast = z.infer<typeof lastResponseSchema>[number];

export const dashboardLastQueryKey = (farmId: string) => ['farmer-dashboard-last', farmId] as const;

/** FARMER_DASHBOARD_LAST (farmer §2.5): per vat the newest reading and the last activities; refreshed every 120 s. */
export const dashboardLastQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: dashboardLastQueryKey(farmId),
    // Sent early at start-up, by its address (features/shell/api/early-calls.ts): that answer is taken if fresh.
    queryFn: ({ signal }) => takeEarly(client, farmerActivityContracts.FARMER_DASHBOARD_LAST, { farm: farmId }, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
