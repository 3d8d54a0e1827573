import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type milkingOneResponseSchema } from '@shared/api/actions/farmer-activity';
import type { ApiClient } from '../../../lib/api-client';

export type MilkingOne = z.infer<typeof milkingOneResponseSchema>;
export type RuleResultWire = MilkingOne['compliance'][number];

/**
 * FARMER_MILKING_ONE (farmer §2.6): one milking with its cards, chart readings, markers and the §9
 * cooling rules as the server evaluated them. An unknown id or another farm's answers 403; the
 * detail page says so itself, so no snackbar and no retry.
 */
export const milkingOneQuery = (client: ApiClient, activityId: string) =>
  queryOptions({
    queryKey: ['farmer-milking-one', activityId],
    queryFn: ({ signal }) =>
      client.call(farmerActivityContracts.FARMER_MILKING_ONE, { activity_id: activityId }, { signal, onError: () => undefined }),
    retry: false,
  });
