import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { PushAckClaims, PushAckVerifier } from '../../ports/push';

/**
 * Acknowledgement tokens: compact JWS (ES256) signed with the VAPID key pair (decision 091). The
 * notifier, which holds the private key to send pushes, signs one per push; the API checks it
 * with the public key alone, so the API cannot make one. The header's `typ` and the `use` claim
 * keep these apart from the VAPID JWTs push services see (those carry aud, exp and sub only).
 */
const TYP = 'vatman-push-ack';
const USE = 'push-ack';

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const fromB64 = (s: string) => Buffer.from(s, 'base64url');

/** The VAPID public key (uncompressed P-256 point, base64url) as a KeyObject. */
const vapidPublicKey = (publicKey: string): KeyObject => {
  const raw = fromB64(publicKey);
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('The VAPID public key is not an uncompressed P-256 point');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33)) }, format: 'jwk' });
};

/** The VAPID private key (32 bytes, base64url) with its public key, as a KeyObject. */
export const vapidPrivateKey = (publicKey: string, privateKey: string): KeyObject => {
  const raw = fromB64(publicKey);
  return createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33)), d: privateKey }, format: 'jwk' });
};

export const signAckToken = (key: KeyObject, claims: PushAckClaims): string => {
  const head = b64(JSON.stringify({ alg: 'ES256', typ: TYP }));
  const body = b64(JSON.stringify({ use: USE, ...claims }));
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${b64(signature)}`;
};

const isClaims = (v: Record<string, unknown>): v is Record<string, unknown> & PushAckClaims =>
  v.use === USE && typeof v.farm_id === 'string' && typeof v.alert_id === 'string' && typeof v.user_id === 'string' && typeof v.exp === 'number';

export const ackVerifier = (publicKey: string): PushAckVerifier => {
  const key = vapidPublicKey(publicKey);
  return {
    verify(token, now) {
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      const [head, body, signature] = parts as [string, string, string];
      try {
        const header = JSON.parse(fromB64(head).toString('utf8')) as Record<string, unknown>;
        if (header.alg !== 'ES256' || header.typ !== TYP) return undefined;
        if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, fromB64(signature))) return undefined;
        const claims = JSON.parse(fromB64(body).toString('utf8')) as Record<string, unknown>;
        if (!isClaims(claims) || claims.exp * 1000 <= now.getTime()) return undefined;
        return { farm_id: claims.farm_id, alert_id: claims.alert_id, user_id: claims.user_id, exp: claims.exp };
      } catch {
        return undefined;
      }
    },
  };
};
