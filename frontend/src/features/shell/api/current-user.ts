import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { farmSchema } from '@shared/entities/farm';
import { userSchema } from '@shared/entities/user';
import type { ApiClient } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';

export const organizationSchema = z.object({ _id: z.string(), name: z.string().optional() });

/** USER_ONE_GET_BY_TOKEN's answer (farmer §3 User, §7). A missing user means signed out. */
export const currentUserAnswerSchema = z.object({
  user: userSchema.nullable().optional(),
  listFarm: z.array(farmSchema).default([]),
  organization: organizationSchema.nullable().optional(),
});
export type CurrentUserAnswer = z.infer<typeof currentUserAnswerSchema>;

export const currentUserKey = (farmId: string | undefined) => ['user', 'current', farmId ?? null] as const;

/**
 * The signed-in user, their farms and organization, for the selected farm. `onError` replaces
 * the default notice so the shell can route a 403 (no profile) without a 'Server Error!'.
 */
export const currentUserQuery = (client: ApiClient, farmId: string | undefined, onError: (error: ApiError) => void) =>
  queryOptions({
    queryKey: currentUserKey(farmId),
    queryFn: ({ signal }) =>
      client.post('/api/user', 'USER_ONE_GET_BY_TOKEN', { farm: farmId }, { schema: currentUserAnswerSchema, signal, onError }),
    // Switching farms refetches; the shell keeps showing the last answer meanwhile.
    placeholderData: keepPreviousData,
  });
