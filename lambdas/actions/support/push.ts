import { createHash } from 'node:crypto';
import { MSG_PUSH_ENDPOINT, pushEndpointAllowed, type PushDevice } from '../../../shared/alerts/push';
import { NOTIFICATION_STATUS } from '../../../shared/alerts/types';
import { MAX_PUSH_DEVICES, MSG_PUSH_ACK_INVALID, MSG_PUSH_TOO_MANY, pushAcknowledgeContracts, pushSubscriptionContracts as contracts } from '../../../shared/api/actions/push';
import type { PushSubscriptionStore, StoredPushSubscription } from '../../ports/push';
import { serve, type ServedAction } from '../../lib/dispatch';
import { ValidationError } from '../../lib/errors';

/** A subscription's id: a digest of its endpoint, so the same browser subscribing again replaces itself. */
const pushDeviceId = (endpoint: string): string => createHash('sha256').update(endpoint).digest('base64url').slice(0, 32);

const deviceOf = (s: StoredPushSubscription): PushDevice => ({ id: s.id, service: new URL(s.subscription.endpoint).host, created_at: s.created_at });
const devicesOf = async (store: Pick<PushSubscriptionStore, 'listPushSubscriptions'>, userId: string) => ({
  devices: (await store.listPushSubscriptions(userId)).map(deviceOf).sort((a, b) => a.created_at.localeCompare(b.created_at)),
});

/**
 * The caller's push subscriptions (Web Push, decision 090). Access self: every call reads and
 * writes the caller's own partition (`USER#<caller>`), whatever else the body says.
 */
export const pushSubscriptionHandlers: readonly ServedAction[] = [
  serve(contracts.PUSH_SUBSCRIBE, ['pushSubscriptions', 'pushConfig', 'now'], async ({ subscription }, { caller, deps, log }) => {
    if (!pushEndpointAllowed(subscription.endpoint, deps.pushConfig.allowLocalEndpoints)) throw new ValidationError(MSG_PUSH_ENDPOINT);
    const id = pushDeviceId(subscription.endpoint);
    const mine = await deps.pushSubscriptions.listPushSubscriptions(caller.userId);
    if (!mine.some((s) => s.id === id) && mine.length >= MAX_PUSH_DEVICES) throw new ValidationError(MSG_PUSH_TOO_MANY);
    await deps.pushSubscriptions.putPushSubscription({ id, user_id: caller.userId, subscription, created_at: deps.now().toISOString() });
    log.info('push subscription stored', { user: caller.userId, device: id });
    return devicesOf(deps.pushSubscriptions, caller.userId);
  }),

  serve(contracts.PUSH_UNSUBSCRIBE, ['pushSubscriptions'], async ({ endpoint }, { caller, deps }) => {
    await deps.pushSubscriptions.deletePushSubscription(caller.userId, pushDeviceId(endpoint));
    return devicesOf(deps.pushSubscriptions, caller.userId);
  }),

  serve(contracts.PUSH_DEVICES, ['pushSubscriptions'], async (_input, { caller, deps }) => devicesOf(deps.pushSubscriptions, caller.userId)),
];

/**
 * A push's 'Acknowledge' (or its click): marks the alert read with the token the push carried.
 * The token names the alert and the user and is checked with the VAPID public key; the user must
 * still be linked to the farm (someone who left it cannot mark its alerts). An archived alert stays archived.
 */
export const pushAcknowledgeHandlers: readonly ServedAction[] = [
  serve(pushAcknowledgeContracts.PUSH_ACKNOWLEDGE, ['pushAckVerifier', 'alertStatus', 'farms', 'now'], async ({ token }, { deps, log }) => {
    const claims = deps.pushAckVerifier.verify(token, deps.now());
    if (!claims || !(await deps.farms.isLinked(claims.user_id, claims.farm_id))) throw new ValidationError(MSG_PUSH_ACK_INVALID);
    const n = await deps.alertStatus.get(claims.farm_id, claims.alert_id);
    if (!n) throw new ValidationError(MSG_PUSH_ACK_INVALID);
    if (n.status === NOTIFICATION_STATUS.unread) await deps.alertStatus.setStatus(claims.farm_id, claims.alert_id, NOTIFICATION_STATUS.read, true, deps.now());
    log.info('alert acknowledged from a push', { farm: claims.farm_id, alert: claims.alert_id, user: claims.user_id });
    return 'success' as const;
  }),
];
