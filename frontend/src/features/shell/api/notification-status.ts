import { queryOptions } from '@tanstack/react-query';
import { farmerNotificationContracts } from '@shared/api/actions/farmer-notification';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../../../lib/api-client';

const notificationStatusKey = (farmId: string) => ['farmer-notification', 'status', farmId] as const;

/**
 * The tab bar's marker (farmer §2.2). Refreshed as often as the dashboard (a new alert shows
 * within 2 minutes); the alerts screen invalidates it after each change it makes (§2.8).
 */
export const notificationStatusQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: notificationStatusKey(farmId),
    // A failed check only leaves the marker off (no snackbar every two minutes); a 401 still
    // reaches the app's unauthorized routing, as every call's does.
    queryFn: ({ signal }) =>
      client.call(farmerNotificationContracts.FARMER_NOTIFICATION_STATUS, { farm: farmId }, { signal, onError: () => undefined }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
