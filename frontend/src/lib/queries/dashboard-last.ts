import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type lastResponseSchema } from '@shared/api/actions/farmer-activity';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient, CallOptions } from '../api-client';
import { takeEarly } from '../early-call';

export type VatLast = z.infer<typeof lastResponseSchema>[number];

export const dashboardLastQueryKey = (farmId: string) => ['farmer-dashboard-last', farmId] as const;

/** The FARMER_DASHBOARD_LAST call itself (also started early at start-up: features/shell/api/early-calls.ts). */
export const dashboardLastCall = (client: ApiClient, farmId: string, options?: CallOptions) =>
  client.call(farmerActivityContracts.FARMER_DASHBOARD_LAST, { farm: farmId }, options);

/** FARMER_DASHBOARD_LAST (farmer §2.5): per vat the newest reading and the last activities; refreshed every 120 s. */
export const dashboardLastQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: dashboardLastQueryKey(farmId),
    queryFn: ({ signal }) => takeEarly(dashboardLastQueryKey(farmId), () => dashboardLastCall(client, farmId, { signal })),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
