import { createECDH, randomBytes, sign, type KeyObject } from 'node:crypto';
import * as ece from 'http_ece';
import type { PushSubscriptionJson } from '../../../shared/alerts/push';
import type { PushMessage } from '../../ports/push';

/** A VAPID JWT lives 12 hours (RFC 8292 allows at most 24); a push service checks it on every request. */
const VAPID_TTL_SECONDS = 12 * 60 * 60;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * The VAPID Authorization header (RFC 8292): an ES256 JWT for the push service's origin, signed
 * with the application server's key, and that key's public half.
 */
const vapidAuthorization = (endpoint: string, subject: string, publicKey: string, key: KeyObject, now: Date): string => {
  const head = b64(JSON.stringify({ typ: 'JWT', alg: 'ES256' }));
  const claims = b64(JSON.stringify({ aud: new URL(endpoint).origin, exp: Math.floor(now.getTime() / 1000) + VAPID_TTL_SECONDS, sub: subject }));
  const signature = sign('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${head}.${claims}.${b64(signature)}, k=${publicKey}`;
};

/**
 * One Web Push request (RFC 8030): the payload encrypted for the browser's keys as aes128gcm
 * (RFC 8291, by http_ece, the encryption web-push itself uses), with the VAPID header, TTL,
 * Urgency and Topic. The same request web-push makes, without its proxy agent and ASN.1 parser:
 * the functions that send alerts stay small (the key is a KeyObject already, see ack-tokens.ts).
 */
export const webPushRequest = (
  subscription: PushSubscriptionJson,
  message: PushMessage,
  vapid: { subject: string; publicKey: string; key: KeyObject },
  now: Date,
): { headers: Record<string, string>; body: Buffer } => {
  const sender = createECDH('prime256v1');
  sender.generateKeys();
  const body = ece.encrypt(Buffer.from(message.payload), {
    version: 'aes128gcm',
    dh: subscription.keys.p256dh,
    privateKey: sender,
    salt: b64(randomBytes(16)),
    authSecret: subscription.keys.auth,
  });
  return {
    headers: {
      TTL: String(message.ttlSeconds),
      Urgency: message.urgency,
      ...(message.topic ? { Topic: message.topic } : {}),
      'Content-Type': 'application/octet-stream',
      'Content-Encoding': 'aes128gcm',
      'Content-Length': String(body.length),
      Authorization: vapidAuthorization(subscription.endpoint, vapid.subject, vapid.publicKey, vapid.key, now),
    },
    body,
  };
};
