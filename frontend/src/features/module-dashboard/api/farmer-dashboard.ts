import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { farmSchema, knodeAssetSchema } from '@shared/entities/farm';
import type { ApiClient } from '../../../lib/api-client';

/** FARMER_DASHBOARD_GET's answer (farmer §3): the farm, its vats (read by the milk dashboard) and knode assets. */
export const farmerDashboardAnswerSchema = z.object({
  farm: farmSchema,
  vats: z.array(z.unknown()),
  knode: z.array(knodeAssetSchema),
});
export type FarmerDashboardAnswer = z.infer<typeof farmerDashboardAnswerSchema>;

export const farmerDashboardQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['farmer-dashboard', farmId],
    queryFn: ({ signal }) =>
      client.post('/api/farmer/dashboard', 'FARMER_DASHBOARD_GET', { farm: farmId }, { schema: farmerDashboardAnswerSchema, signal }),
  });
