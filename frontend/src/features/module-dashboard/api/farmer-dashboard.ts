import { queryOptions } from '@tanstack/react-query';
import { farmerDashboardContracts } from '@shared/api/actions/farmer-dashboard';
import type { ApiClient } from '../../../lib/api-client';

export const farmerDashboardQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-dashboard', farmId],
    queryFn: ({ signal }) => client.call(farmerDashboardContracts.FARMER_DASHBOARD_GET, { farm: farmId }, { signal }),
  });
