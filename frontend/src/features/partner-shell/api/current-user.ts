import { useQuery } from '@tanstack/react-query';
import { userContracts } from '@shared/api/actions/user';
import { useApiClient } from '../../../lib/api-client-provider';

const currentUserQueryKey = ['partner-shell', 'current-user'] as const;

/** The signed-in user (operator §2 Partner shells: nothing renders until it exists); the farms are not shown here. */
export const useCurrentUser = () => {
  const client = useApiClient();
  return useQuery({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => client.call(userContracts.USER_ONE_GET_BY_TOKEN, {}, { signal }),
  });
};
