import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { userContracts } from '@shared/api/actions/user';
import type { ApiClient } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';
import { takeEarly } from '../../../lib/early-call';

/** USER_ONE_GET_BY_TOKEN's answer (farmer §3 User, §7): the user, their farms and organization. */
export type { CurrentUserAnswer } from '@shared/api/actions/user';

const currentUserKey = (farmId: string | undefined) => ['user', 'current', farmId ?? null] as const;

/**
 * The signed-in user, their farms and organization, for the selected farm. `onError` replaces
 * the default notice so the shell can route a 403 (no profile) without a 'Server Error!'.
 */
export const currentUserQuery = (client: ApiClient, farmId: string | undefined, onError: (error: ApiError) => void) =>
  queryOptions({
    queryKey: currentUserKey(farmId),
    // Sent early at start-up, by its address (early-calls.ts): that answer is taken if fresh.
    queryFn: ({ signal }) => takeEarly(client, userContracts.USER_ONE_GET_BY_TOKEN, { farm: farmId }, { signal, onError }),
    // Switching farms refetches; the shell keeps showing the last answer meanwhile.
    placeholderData: keepPreviousData,
  });
