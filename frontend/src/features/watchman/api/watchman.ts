import { queryOptions } from '@tanstack/react-query';
import { operatorContracts as c } from '@shared/api/actions/operator';
import type { ApiClient } from '../../../lib/api-client';

/** /api/watchman (operator §7) as the Watchman page uses it. */
export const watchmanSettingsQuery = (client: ApiClient) =>
  queryOptions({ queryKey: ['watchman', 'settings'], queryFn: ({ signal }) => client.call(c.GET_SETTINGS, {}, { signal }) });

export const watchmanActivityQuery = (client: ApiClient, page: number) =>
  queryOptions({ queryKey: ['watchman', 'activity', page], queryFn: ({ signal }) => client.call(c.GET_ACTIVITY, { page }, { signal }) });

/** SAVE_SETTINGS: every setting in camelCase (§7); the answer is 'success' or it is an error. */
export const saveWatchmanSettings = (client: ApiClient, form: Record<string, string | boolean>) => client.call(c.SAVE_SETTINGS, form);
