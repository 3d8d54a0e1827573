import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { farmerActivityContracts, type milkingBriefResponseSchema } from '@shared/api/actions/farmer-activity';
import type { ApiClient } from '../../../lib/api-client';

export type MilkingBrief = z.infer<typeof milkingBriefResponseSchema>;

/**
 * FARMER_MILKING_LIST_BRIEF (farmer §7): the vat's milkings 15 days either side of one, for the
 * detail's comparison. Its failure only costs that card, so it says so there instead of a snackbar.
 */
export const milkingBriefQuery = (client: ApiClient, activityId: string) =>
  queryOptions({
    queryKey: ['farmer-milking-brief', activityId],
    queryFn: ({ signal }) =>
      client.call(farmerActivityContracts.FARMER_MILKING_LIST_BRIEF, { activity_id: activityId }, { signal, onError: () => undefined }),
    retry: false,
  });
