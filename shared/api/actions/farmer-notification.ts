import * as z from 'zod';
import { access, contract } from '../contract';
import { farmField, ID_MAX, idField, jsonField } from '../fields';
import { alertDataSchema, storedActivitySchema } from './farmer-activity';

/** The notification a client sends back (farmer §7 `item` JSON): only its id matters. */
const itemField = jsonField(z.object({ _id: idField('item._id') }).loose(), 'item');

/** /api/farmer/notification (farmer §7, §2.8). */
const farmerNotificationInputs = {
  FARMER_NOTIFICATION_STATUS: z.object({ type: z.literal('FARMER_NOTIFICATION_STATUS'), farm: farmField }),
  FARMER_NOTIFICATION_LIST: z.object({
    type: z.literal('FARMER_NOTIFICATION_LIST'),
    farm: farmField,
    /** The `_id` of the last notification of the previous page; none for the first page. */
    cursor: z.string({ error: 'cursor is not valid' }).max(ID_MAX, 'cursor is not valid').optional(),
  }),
  FARMER_NOTIFICATION_ONE_EDIT: z.object({
    type: z.literal('FARMER_NOTIFICATION_ONE_EDIT'),
    farm: farmField,
    item: itemField,
    status: z.coerce.number({ error: 'status must be 1, 2 or 3' }).pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'status must be 1, 2 or 3' })),
  }),
  FARMER_NOTIFICATION_DETAIL: z.object({ type: z.literal('FARMER_NOTIFICATION_DETAIL'), farm: farmField, item: itemField }),
} as const;

// ---- Answers (the server's types; the client parses with them) ------------------------------

/** FARMER_NOTIFICATION_STATUS: 'YES' when the farm has an unread alert. */
export const notificationStatusAnswerSchema = z.enum(['YES', 'NO']);
export type NotificationStatusAnswer = z.infer<typeof notificationStatusAnswerSchema>;

/**
 * A notification as the list answers it (farmer §3 Notification: shared/alerts/types.ts
 * `Notification`, which the server's answers must satisfy). `type` is any integer so a type the
 * client does not know yet still lists (as 'Type {n}').
 */
/** The alert's vat (shared/alerts/types.ts `Notification.device`). */
const notificationDeviceSchema = z.object({ _id: z.string(), name: z.string(), vat_number: z.number() });

const notificationSchema = z.object({
  _id: z.string(),
  farm_id: z.string(),
  type: z.number().int(),
  status: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  data: alertDataSchema,
  quality: z.object({ value: z.number().optional(), agitator_outage_percent: z.number().optional() }).optional(),
  lateMilking: z.object({ end_time_current: z.string(), end_time_schedule: z.string() }).optional(),
  device: notificationDeviceSchema,
  created_at: z.string(),
  detail: z.string().optional(),
  message_type: z.string().optional(),
});
export type NotificationWire = z.infer<typeof notificationSchema>;

/**
 * FARMER_NOTIFICATION_LIST pages (a farm's whole history could pass Lambda's 6 MB
 * answer limit): at most this many notifications a call; a full page means there may be more,
 * asked for with the last one's `_id` as `cursor`.
 */
export const NOTIFICATION_PAGE_SIZE = 100;

/** FARMER_NOTIFICATION_LIST: a page of the farm's visible notifications, newest first (NOTIFICATION_PAGE_SIZE). */
export const notificationListAnswerSchema = z.array(notificationSchema);
export type NotificationListAnswer = z.infer<typeof notificationListAnswerSchema>;

/** FARMER_NOTIFICATION_ONE_EDIT: the notification after the change and the farm's unread total. */
export const notificationEditAnswerSchema = z.object({ item: notificationSchema, unread: z.number().int() });
export type NotificationEditAnswer = z.infer<typeof notificationEditAnswerSchema>;

/**
 * FARMER_NOTIFICATION_DETAIL: the storage activity holding the alert (its id, the activity, the
 * vat and the alert's id), or `_id: null` with NO_DETAIL_MESSAGE when there is none.
 */
/**
 * One escalation step of a critical alert: to whom, how, when it was due, and what
 * became of it ('sent', 'pending' until due, 'skipped' when the alert was read first, …).
 */
const escalationStepSchema = z.object({
  step: z.union([z.literal(1), z.literal(2)]),
  recipient: z.string(),
  channel: z.enum(['sms', 'email', 'push']),
  due_at: z.string(),
  state: z.enum(['pending', 'sending', 'sent', 'dead', 'unconfirmed', 'skipped']),
  settled_at: z.string().optional(),
  reason: z.string().optional(),
});
export type EscalationStepWire = z.infer<typeof escalationStepSchema>;
/** Both answers list the alert's escalation steps, oldest due first (empty when it has none). */
const escalations = { escalations: z.array(escalationStepSchema).optional() };

export const notificationDetailAnswerSchema = z.union([
  z.object({ _id: z.null(), message: z.string(), ...escalations }),
  // The storage activity that held the milk when the alert was raised, and the alert's vat.
  z.object({ _id: z.string(), activity: storedActivitySchema, device: notificationDeviceSchema, alert_id: z.string(), ...escalations }),
]);
export type NotificationDetailAnswer = z.infer<typeof notificationDetailAnswerSchema>;

/** FARMER_NOTIFICATION_DETAIL without a storage record (farmer §2.8, §8). */
export const NO_DETAIL_MESSAGE = 'No detail, please contact customer support!';

// ---- Contracts -------------------------------------------------------------------------------

const PATH = '/api/farmer/notification';
const farmMember = access.farmMember();

/** /api/farmer/notification: the farm's notifications, for its users (farmer §6) and Admin. */
export const farmerNotificationContracts = {
  FARMER_NOTIFICATION_STATUS: contract({ path: PATH, type: 'FARMER_NOTIFICATION_STATUS', input: farmerNotificationInputs.FARMER_NOTIFICATION_STATUS, answer: notificationStatusAnswerSchema, access: farmMember }),
  FARMER_NOTIFICATION_LIST: contract({ path: PATH, type: 'FARMER_NOTIFICATION_LIST', input: farmerNotificationInputs.FARMER_NOTIFICATION_LIST, answer: notificationListAnswerSchema, access: farmMember }),
  FARMER_NOTIFICATION_ONE_EDIT: contract({ path: PATH, type: 'FARMER_NOTIFICATION_ONE_EDIT', input: farmerNotificationInputs.FARMER_NOTIFICATION_ONE_EDIT, answer: notificationEditAnswerSchema, access: farmMember }),
  FARMER_NOTIFICATION_DETAIL: contract({ path: PATH, type: 'FARMER_NOTIFICATION_DETAIL', input: farmerNotificationInputs.FARMER_NOTIFICATION_DETAIL, answer: notificationDetailAnswerSchema, access: farmMember }),
} as const;
