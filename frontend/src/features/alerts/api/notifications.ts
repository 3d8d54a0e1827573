import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { ApiClient } from '../../../lib/api-client';

const PATH = '/api/farmer/notification';

/**
 * A notification as FARMER_NOTIFICATION_LIST answers it (farmer §3 Notification,
 * shared/alerts/types.ts `Notification`). Parsed here because shared/ holds the TypeScript type
 * only; `type` stays a number so a type this build does not know still lists (as 'Type {n}').
 */
export const notificationSchema = z
  .object({
    _id: z.string(),
    type: z.number().int(),
    status: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    data: z.object({
      published_at: z.string(),
      temp1: z.number().nullable(),
      milk_volume: z.number().nullable(),
      agitator_status: z.union([z.literal(0), z.literal(1)]).nullable(),
    }),
    device: z.object({ _id: z.string(), name: z.string(), vat_number: z.number() }),
    created_at: z.string(),
    detail: z.string().optional(),
  })
  .loose();
export type AlertItem = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);

/**
 * Every query of this endpoint starts with this key, the shell's status query
 * (['farmer-notification', 'status', farm]) included: invalidating the prefix after a change
 * refreshes the list and the tab marker together without importing the shell feature.
 */
export const NOTIFICATION_KEY_PREFIX = ['farmer-notification'] as const;

export const notificationListQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: [...NOTIFICATION_KEY_PREFIX, 'list', farmId] as const,
    queryFn: ({ signal }) => client.post(PATH, 'FARMER_NOTIFICATION_LIST', { farm: farmId }, { schema: notificationListSchema, signal }),
  });

/** FARMER_NOTIFICATION_ONE_EDIT's answer: the notification after the change and the farm's unread total. */
export const editAnswerSchema = z.object({ item: notificationSchema, unread: z.number().int() });

/** Status 2 marks read, 3 archives (farmer §2.8, §4). */
export const editNotificationStatus = (client: ApiClient, farmId: string, id: string, status: 2 | 3) =>
  client.post(PATH, 'FARMER_NOTIFICATION_ONE_EDIT', { farm: farmId, item: { _id: id }, status }, { schema: editAnswerSchema });

/** FARMER_NOTIFICATION_DETAIL: the storage activity holding the alert, or `_id: null` when there is none. */
export const detailAnswerSchema = z.object({ _id: z.string().nullable() }).loose();

export const notificationDetail = (client: ApiClient, farmId: string, id: string) =>
  client.post(PATH, 'FARMER_NOTIFICATION_DETAIL', { farm: farmId, item: { _id: id } }, { schema: detailAnswerSchema });
