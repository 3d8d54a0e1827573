import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { OutboxMessage } from './sns-outbox';

/** One push as the push service received it: the encrypted body and the headers RFC 8030/8291/8292 define. */
interface ReceivedPush {
  readonly subscription: string;
  readonly endpoint: string;
  readonly at: string;
  readonly ttl: number;
  readonly urgency: string;
  readonly topic?: string;
  readonly contentEncoding: string;
  /** The VAPID public key (k=) whose signature over the JWT (t=) was checked. */
  readonly vapidKey: string;
  readonly vapidClaims: { readonly aud: string; readonly exp: number; readonly sub: string };
  /** The aes128gcm record (base64): only the browser's private key opens it. */
  readonly body: string;
}

interface PushServiceStandIn {
  readonly server: Server;
  /** Its origin, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** A fresh subscription endpoint (what pushManager.subscribe() gets from a real push service). */
  newEndpoint(): string;
  /** The browser dropped the subscription: the service answers 410 Gone for it from now on. */
  expire(endpoint: string): void;
  received(): ReceivedPush[];
  /** An outage: every push is answered 503 until switched back. */
  setDown(down: boolean): void;
  /** Called with each accepted push (the browser test hands it to the service worker). */
  onPush(listener: (push: ReceivedPush) => void): void;
}

const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

/** `vapid t=<jwt>, k=<key>` (RFC 8292 §3). */
const parseVapid = (header: string | undefined): { t: string; k: string } | undefined => {
  const m = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!m?.[1]) return undefined;
  const params = Object.fromEntries(m[1].split(',').map((p) => p.trim().split('=').map((x) => x.trim()) as [string, string]));
  return params.t && params.k ? { t: params.t, k: params.k } : undefined;
};

/** Checks the VAPID JWT as a push service does: ES256 by the key k, audience this origin, expiry within 24 h. */
const checkVapid = (vapid: { t: string; k: string }, origin: string, now: number): ReceivedPush['vapidClaims'] | string => {
  const [head, body, sig] = vapid.t.split('.');
  if (!head || !body || !sig) return 'malformed JWT';
  const raw = Buffer.from(vapid.k, 'base64url');
  if (raw.length !== 65) return 'k is not a P-256 public key';
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))) return 'bad signature';
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < now || claims.exp * 1000 > now + 24 * 3600_000 + 60_000) return 'exp missing, past or over 24 hours away';
  if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) return 'sub must be a mailto: or https: contact';
  return { aud: claims.aud, exp: claims.exp, sub: claims.sub };
};

/**
 * A Web Push service (RFC 8030) for the local stack: `POST /push/<id>` with an aes128gcm body
 * (RFC 8291), a VAPID Authorization header (RFC 8292, its signature and audience checked), TTL and
 * Urgency. Each accepted push is answered 201 and recorded in the outbox with channel "push"; an
 * expired subscription gets 410, a request without the headers 400, a bad VAPID token 401/403.
 */
export const startPushService = async (port: number, outbox: { append(entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'> & { attributes?: Record<string, string> }): OutboxMessage }): Promise<PushServiceStandIn> => {
  const origin = `http://127.0.0.1:${port}`;
  const expired = new Set<string>();
  const received: ReceivedPush[] = [];
  const listeners: ((p: ReceivedPush) => void)[] = [];
  let down = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const fail = (status: number, reason: string) => res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      const path = new URL(req.url ?? '/', origin).pathname;
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(path)?.[1];
      if (req.method !== 'POST' || !id) return fail(404, 'not a subscription');
      if (down) return fail(503, 'push service unavailable');
      if (expired.has(id)) return fail(410, 'subscription expired');
      const ttl = Number(req.headers.ttl);
      if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return fail(400, 'TTL header required');
      const urgency = String(req.headers.urgency ?? 'normal');
      if (!URGENCIES.has(urgency)) return fail(400, 'bad Urgency');
      const contentEncoding = String(req.headers['content-encoding'] ?? '');
      if (contentEncoding !== 'aes128gcm') return fail(415, 'aes128gcm payloads only');
      const vapid = parseVapid(req.headers.authorization);
      if (!vapid) return fail(401, 'VAPID Authorization required');
      const claims = checkVapid(vapid, origin, Date.now());
      if (typeof claims === 'string') return fail(403, `VAPID: ${claims}`);
      const body = Buffer.concat(chunks);
      // An aes128gcm record starts with a 16-byte salt, a 4-byte record size and the sender's key (RFC 8188).
      if (body.length < 86 || body[20] !== 65) return fail(400, 'not an aes128gcm record');
      const topic = req.headers.topic ? String(req.headers.topic) : undefined;
      const push: ReceivedPush = { subscription: id, endpoint: `${origin}${path}`, at: new Date().toISOString(), ttl, urgency, ...(topic ? { topic } : {}), contentEncoding, vapidKey: vapid.k, vapidClaims: claims, body: body.toString('base64') };
      received.push(push);
      outbox.append({
        channel: 'push',
        to: push.endpoint,
        message: `encrypted push (${body.length} bytes, ${contentEncoding})`,
        attributes: { ttl: String(ttl), urgency, ...(topic ? { topic } : {}), vapid_sub: claims.sub },
      });
      for (const l of listeners) l(push);
      res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    server,
    origin,
    newEndpoint: () => `${origin}/push/${randomUUID()}`,
    expire: (endpoint) => void expired.add(endpoint.split('/').pop() ?? ''),
    received: () => [...received],
    setDown: (d) => void (down = d),
    onPush: (l) => void listeners.push(l),
  };
};
