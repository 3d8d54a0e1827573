import { z } from 'zod';
import { farmField, jsonField } from '../fields';

/** The notification a client sends back (farmer §7 `item` JSON): only its id matters. */
const itemField = jsonField(z.object({ _id: z.string({ error: 'item._id is required' }).min(1, 'item._id is required') }).loose(), 'item');

/** /api/farmer/notification (farmer §7, §2.8). */
export const farmerNotificationActions = {
  FARMER_NOTIFICATION_STATUS: z.object({ type: z.literal('FARMER_NOTIFICATION_STATUS'), farm: farmField }),
  FARMER_NOTIFICATION_LIST: z.object({ type: z.literal('FARMER_NOTIFICATION_LIST'), farm: farmField }),
  FARMER_NOTIFICATION_ONE_EDIT: z.object({
    type: z.literal('FARMER_NOTIFICATION_ONE_EDIT'),
    farm: farmField,
    item: itemField,
    status: z.coerce.number({ error: 'status must be 1, 2 or 3' }).pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'status must be 1, 2 or 3' })),
  }),
  FARMER_NOTIFICATION_DETAIL: z.object({ type: z.literal('FARMER_NOTIFICATION_DETAIL'), farm: farmField, item: itemField }),
} as const;

/** The answer of FARMER_NOTIFICATION_STATUS: 'YES' when the farm has an unread alert. */
export type NotificationStatusAnswer = 'YES' | 'NO';

/** FARMER_NOTIFICATION_DETAIL without a storage record (farmer §2.8, §8). */
export const NO_DETAIL_MESSAGE = 'No detail, please contact customer support!';
