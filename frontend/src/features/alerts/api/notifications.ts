import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { farmerNotificationContracts as c, NOTIFICATION_PAGE_SIZE, type NotificationWire } from '@shared/api/actions/farmer-notification';
import type { ApiClient } from '../../../lib/api-client';

/** A notification as FARMER_NOTIFICATION_LIST answers it (one definition with the server's, in shared/api). */
export type AlertItem = NotificationWire;

/**
 * Every query of this endpoint starts with this key, the shell's status query
 * (['farmer-notification', 'status', farm]) included: invalidating the prefix after a change
 * refreshes the list and the tab marker together without importing the shell feature.
 */
export const NOTIFICATION_KEY_PREFIX = ['farmer-notification'] as const;

/** The list in pages (NOTIFICATION_PAGE_SIZE): a full page may have more after it, asked for with its last `_id`. */
export const notificationListQuery = (client: ApiClient, farmId: string) =>
  infiniteQueryOptions({
    queryKey: [...NOTIFICATION_KEY_PREFIX, 'list', farmId] as const,
    queryFn: ({ signal, pageParam }) => client.call(c.FARMER_NOTIFICATION_LIST, { farm: farmId, ...(pageParam ? { cursor: pageParam } : {}) }, { signal }),
    initialPageParam: '',
    getNextPageParam: (page: readonly AlertItem[]) => (page.length === NOTIFICATION_PAGE_SIZE ? page.at(-1)?._id : undefined),
  });

/** Status 2 marks read, 3 archives (farmer §2.8, §4). */
export const editNotificationStatus = (client: ApiClient, farmId: string, id: string, status: 2 | 3) =>
  client.call(c.FARMER_NOTIFICATION_ONE_EDIT, { farm: farmId, item: { _id: id }, status });

/** FARMER_NOTIFICATION_DETAIL: the storage activity holding the alert, or `_id: null` when there is none. */
export const notificationDetail = (client: ApiClient, farmId: string, id: string) =>
  client.call(c.FARMER_NOTIFICATION_DETAIL, { farm: farmId, item: { _id: id } });

/** The escalation steps of an open critical alert: FARMER_NOTIFICATION_DETAIL's `escalations`. */
export const escalationStepsQuery = (client: ApiClient, farmId: string, id: string) =>
  queryOptions({
    queryKey: [...NOTIFICATION_KEY_PREFIX, 'escalations', farmId, id] as const,
    queryFn: async ({ signal }) => (await client.call(c.FARMER_NOTIFICATION_DETAIL, { farm: farmId, item: { _id: id } }, { signal })).escalations ?? [],
  });
