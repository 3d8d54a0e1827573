import { queryOptions } from '@tanstack/react-query';
import { operatorContracts as c } from '@shared/api/actions/operator';
import type { ApiClient } from '../../../lib/api-client';

/** /api/watchman (operator §7) as the Watchman page uses it. */
export const watchmanSettingsQuery = (client: ApiClient) =>
  queryOptions({ queryKey: ['watchman', 'settings'], queryFn: ({ signal }) => client.call(c.GET_SETTINGS, {}, { signal }) });

/** The Activity tab: a page of runs (GET_ACTIVITY, the spec's list) with the total and the open cases beside it. */
export const watchmanActivityQuery = (client: ApiClient, page: number) =>
  queryOptions({
    queryKey: ['watchman', 'activity', page],
    queryFn: async ({ signal }) => {
      const [runs, summary] = await Promise.all([client.call(c.GET_ACTIVITY, { page }, { signal }), client.call(c.GET_ACTIVITY_SUMMARY, {}, { signal })]);
      return { runs, ...summary };
    },
  });

/** SAVE_SETTINGS: every setting in camelCase (§7); the answer is 'success' or it is an error. */
export const saveWatchmanSettings = (client: ApiClient, form: Record<string, string | boolean>) => client.call(c.SAVE_SETTINGS, form);
