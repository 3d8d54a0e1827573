import type { PushSubscriptionJson } from '../../shared/alerts/push';

/** Names of the push configuration in a function's environment (cdk/lib/port-grants.ts sets them). */
export const PUSH_ENV = {
  /** The VAPID public key (base64url, uncompressed P-256): also the web app's, in config.json. */
  publicKey: 'VAPID_PUBLIC_KEY',
  /** The SSM SecureString holding the VAPID private key (base64url), read at run time. */
  privateKeyParameter: 'VAPID_PRIVATE_KEY_PARAMETER',
  /** The VAPID subject: a mailto: or https: contact for push services. */
  subject: 'VAPID_SUBJECT',
  /** '1' on the local stack only: http endpoints on this machine are accepted (the push-service stand-in). */
  allowLocalEndpoints: 'PUSH_ALLOW_LOCAL_ENDPOINTS',
  /** The public API's base, where a service worker sends an acknowledgement. */
  ackUrl: 'PUSH_ACK_URL',
} as const;

/** One browser's subscription of one user (Farms table, `USER#<sub>` / `PUSH#<id>`). */
export interface StoredPushSubscription {
  /** A digest of the endpoint: a device subscribing again overwrites itself. */
  readonly id: string;
  readonly user_id: string;
  readonly subscription: PushSubscriptionJson;
  readonly created_at: string;
}

/** A user's push subscriptions, one per browser. */
export interface PushSubscriptionStore {
  listPushSubscriptions(userId: string): Promise<StoredPushSubscription[]>;
  putPushSubscription(s: StoredPushSubscription): Promise<void>;
  /** Removes it (unsubscribed, or the push service said it is gone); nothing when absent. */
  deletePushSubscription(userId: string, id: string): Promise<void>;
}

export interface PushMessage {
  /** The payload, encrypted to the subscription's keys (aes128gcm). */
  readonly payload: string;
  /** Seconds the push service keeps it for a device that is offline. */
  readonly ttlSeconds: number;
  readonly urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** A push with the same topic replaces one still waiting at the push service (base64url, ≤ 32 chars). */
  readonly topic?: string;
}

/**
 * What the push service answered: accepted; gone (404/410: the subscription expired; remove it);
 * or refused (a redirect, or another 4xx but 408 and 429: the same request would be refused again,
 * so it is not retried). Other failures (5xx, 408, 429, no answer) throw: the queue retries them.
 */
export type PushResult =
  | { readonly sent: true; readonly status: number }
  | { readonly sent: false; readonly gone: true; readonly status: number }
  | { readonly sent: false; readonly gone: false; readonly status: number; readonly reason: string };

/** The claims of an acknowledgement a push carries: who may mark which alert read, until when. */
export interface PushAckClaims {
  readonly farm_id: string;
  readonly alert_id: string;
  readonly user_id: string;
  /** Seconds since the epoch. */
  readonly exp: number;
}

/** Sends pushes with the VAPID key (the notifier), and signs the acknowledgements they carry with it. */
export interface PushSender {
  send(subscription: PushSubscriptionJson, message: PushMessage, options?: { readonly abortSignal?: AbortSignal }): Promise<PushResult>;
  signAck(claims: PushAckClaims): Promise<string>;
  /** Where the service worker sends the acknowledgement. */
  readonly ackUrl: string;
}

/** Checks an acknowledgement with the VAPID public key alone: the API cannot make one. */
export interface PushAckVerifier {
  /** The claims of a well-signed token not yet expired at `now`; undefined otherwise. */
  verify(token: string, now: Date): PushAckClaims | undefined;
}
