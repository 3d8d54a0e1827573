import { queryOptions } from '@tanstack/react-query';
import { farmerNotificationContracts as c, type NotificationWire } from '@shared/api/actions/farmer-notification';
import type { ApiClient } from '../../../lib/api-client';

/** A notification as FARMER_NOTIFICATION_LIST answers it (one definition with the server's, in shared/api). */
export type AlertItem = NotificationWire;

/**
 * Every query of this endpoint starts with this key, the shell's status query
 * (['farmer-notification', 'status', farm]) included: invalidating the prefix after a change
 * refreshes the list and the tab marker together without importing the shell feature.
 */
export const NOTIFICATION_KEY_PREFIX = ['farmer-notification'] as const;

export const notificationListQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: [...NOTIFICATION_KEY_PREFIX, 'list', farmId] as const,
    queryFn: ({ signal }) => client.call(c.FARMER_NOTIFICATION_LIST, { farm: farmId }, { signal }),
  });

/** Status 2 marks read, 3 archives (farmer §2.8, §4). */
export const editNotificationStatus = (client: ApiClient, farmId: string, id: string, status: 2 | 3) =>
  client.call(c.FARMER_NOTIFICATION_ONE_EDIT, { farm: farmId, item: { _id: id }, status });

/** FARMER_NOTIFICATION_DETAIL: the storage activity holding the alert, or `_id: null` when there is none. */
export const notificationDetail = (client: ApiClient, farmId: string, id: string) =>
  client.call(c.FARMER_NOTIFICATION_DETAIL, { farm: farmId, item: { _id: id } });
