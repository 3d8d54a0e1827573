import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type lastResponseSchema } from '@shared/api/actions/farmer-activity';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../api-client';

export type VatLast = z.infer<typeof lastResponseSchema>[number];

/** FARMER_DASHBOARD_LAST (farmer §2.5): per vat the newest reading and the last activities; refreshed every 120 s. */
export const dashboardLastQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-dashboard-last', farmId],
    queryFn: ({ signal }) =>
      client.call(farmerActivityContracts.FARMER_DASHBOARD_LAST, { farm: farmId }, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
