import * as z from 'zod';
import { MSG_PUSH_SUBSCRIPTION, pushDeviceSchema, pushSubscriptionSchema } from '../../alerts/push';
import { access, contract } from '../contract';
import { jsonField } from '../fields';

/** Ours (Web Push, beyond the spec): the acknowledgement a push carried is not good (tampered, expired, or the user left the farm). */
export const MSG_PUSH_ACK_INVALID = 'This notification can no longer be acknowledged. Open the alert in Vat-Man.';
/** Ours: a person may have pushes on this many browsers. */
export const MAX_PUSH_DEVICES = 20;
export const MSG_PUSH_TOO_MANY = `Push notifications are on for ${MAX_PUSH_DEVICES} browsers already. Turn them off on one first.`;

/** The caller's browsers with pushes on. */
const pushDevicesAnswerSchema = z.object({ devices: z.array(pushDeviceSchema) });
export type PushDevicesAnswer = z.infer<typeof pushDevicesAnswerSchema>;

const pushActions = {
  /** `subscription`: the browser's PushSubscription JSON (its toJSON()). */
  PUSH_SUBSCRIBE: z.object({ type: z.literal('PUSH_SUBSCRIBE'), subscription: jsonField(pushSubscriptionSchema, 'subscription') }),
  /** `endpoint`: the browser's subscription endpoint (another browser's endpoint matches none of the caller's). */
  PUSH_UNSUBSCRIBE: z.object({ type: z.literal('PUSH_UNSUBSCRIBE'), endpoint: z.string({ error: MSG_PUSH_SUBSCRIPTION }).min(1, MSG_PUSH_SUBSCRIPTION).max(2048, MSG_PUSH_SUBSCRIPTION) }),
  PUSH_DEVICES: z.object({ type: z.literal('PUSH_DEVICES') }),
  /** `token`: the signed acknowledgement the push carried (the service worker has no session). */
  PUSH_ACKNOWLEDGE: z.object({ type: z.literal('PUSH_ACKNOWLEDGE'), token: z.string({ error: MSG_PUSH_ACK_INVALID }).min(1, MSG_PUSH_ACK_INVALID).max(2048, MSG_PUSH_ACK_INVALID) }),
} as const;

const PROFILE = '/api/setting/profile';

/** On /api/setting/profile: the caller's own push subscriptions, one per browser (access self: there is no user field to name another). */
export const pushSubscriptionContracts = {
  PUSH_SUBSCRIBE: contract({ path: PROFILE, type: 'PUSH_SUBSCRIBE', input: pushActions.PUSH_SUBSCRIBE, answer: pushDevicesAnswerSchema, access: access.self }),
  PUSH_UNSUBSCRIBE: contract({ path: PROFILE, type: 'PUSH_UNSUBSCRIBE', input: pushActions.PUSH_UNSUBSCRIBE, answer: pushDevicesAnswerSchema, access: access.self }),
  PUSH_DEVICES: contract({ path: PROFILE, type: 'PUSH_DEVICES', input: pushActions.PUSH_DEVICES, answer: pushDevicesAnswerSchema, access: access.self }),
} as const;

/**
 * On /api/user (public): a service worker marks a pushed alert read with the token the push
 * carried, signed by the notifier for that alert and user (decision 091); no session needed.
 */
export const pushAcknowledgeContracts = {
  PUSH_ACKNOWLEDGE: contract({ path: '/api/user', type: 'PUSH_ACKNOWLEDGE', input: pushActions.PUSH_ACKNOWLEDGE, answer: z.literal('success'), access: access.public }),
} as const;
