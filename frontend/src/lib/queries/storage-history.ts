import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type storageHistoryResponseSchema } from '@shared/api/actions/farmer-activity';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../api-client';

export type VatStorageHistory = z.infer<typeof storageHistoryResponseSchema>[number];

/** FARMER_STORAGE_HISTORY (farmer §2.5): per vat the last 7 days of storages and level/volume/temperature. */
export const storageHistoryQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-storage-history', farmId],
    queryFn: ({ signal }) =>
      client.call(farmerActivityContracts.FARMER_STORAGE_HISTORY, { farm: farmId }, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
