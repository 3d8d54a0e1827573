import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { userSchema } from '@shared/entities/user';
import { useApiClient } from '../../../lib/api-client-provider';

/** USER_ONE_GET_BY_TOKEN's answer as the partner shells need it: the user (the farms are not shown here). */
export const currentUserResponseSchema = z.object({ user: userSchema });
export type CurrentUserResponse = z.infer<typeof currentUserResponseSchema>;

export const currentUserQueryKey = ['partner-shell', 'current-user'] as const;

/** The signed-in user (operator §2 Partner shells: nothing renders until it exists). */
export const useCurrentUser = () => {
  const client = useApiClient();
  return useQuery({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => client.post('/api/user', 'USER_ONE_GET_BY_TOKEN', {}, { schema: currentUserResponseSchema, signal }),
  });
};
