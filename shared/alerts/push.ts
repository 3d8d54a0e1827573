import * as z from 'zod';

/**
 * Web Push (beyond the spec): a third channel beside email and text. A browser's PushSubscription
 * (its `toJSON()`) is stored per user and device; a critical alert goes by push first and its text
 * only when the push is not opened or acknowledged within the user's minutes (docs/areas/alerts.md,
 * "Push"; decisions 090-092).
 */

/** Minutes a critical alert's push waits to be opened or acknowledged before the text goes (per user). */
export const DEFAULT_PUSH_MINUTES = 5;
const PUSH_MINUTES_LIMITS = { min: 1, max: 1440 } as const;
const minutesMessage = `Push minutes must be between ${PUSH_MINUTES_LIMITS.min} and ${PUSH_MINUTES_LIMITS.max}.`;
export const pushMinutesSchema = z.number().int(minutesMessage).min(PUSH_MINUTES_LIMITS.min, minutesMessage).max(PUSH_MINUTES_LIMITS.max, minutesMessage);

export const MSG_PUSH_SUBSCRIPTION = 'The browser did not give a usable push subscription.';
export const MSG_PUSH_ENDPOINT = 'The push endpoint must be an https address of a push service.';

/** base64url as the browser's toJSON() gives the keys (no padding). */
const base64url = z.string({ error: MSG_PUSH_SUBSCRIPTION }).regex(/^[A-Za-z0-9_-]+={0,2}$/, MSG_PUSH_SUBSCRIPTION);

/** PushSubscription.toJSON(): the push service's endpoint and the keys the payload is encrypted with (RFC 8291). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string({ error: MSG_PUSH_SUBSCRIPTION }).max(2048, MSG_PUSH_SUBSCRIPTION).url(MSG_PUSH_SUBSCRIPTION),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point is 65 bytes (87 base64url characters); the auth secret 16 bytes (22).
    p256dh: base64url.min(80, MSG_PUSH_SUBSCRIPTION).max(100, MSG_PUSH_SUBSCRIPTION),
    auth: base64url.min(16, MSG_PUSH_SUBSCRIPTION).max(32, MSG_PUSH_SUBSCRIPTION),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** An address written as an IP (WHATWG URL normalizes 0x7f.1 and 2130706433 to 127.0.0.1; IPv6 comes bracketed). */
const isIpLiteral = (hostname: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
/** Names that are this machine's or a private network's by convention, never a public push service. */
const isLocalName = (hostname: string): boolean => hostname === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)\.?$/.test(hostname) || !hostname.includes('.');

/**
 * Where the server may send pushes: an https push service by its name on the default port
 * (443). The URL comes from a browser, so anything else could make the sending function call an
 * address of its own network (the metadata service, the Lambda runtime API, a peer): IP literals,
 * names that are local by convention, other ports and credentials in the URL are refused. With
 * `allowLocal` (the local stack's configuration, PUSH_ALLOW_LOCAL_ENDPOINTS) also plain http to
 * this machine, where the push-service stand-in listens. Never plain http elsewhere: the payload is
 * encrypted, but the VAPID header is not.
 */
export const pushEndpointAllowed = (endpoint: string, allowLocal: boolean): boolean => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (allowLocal && url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost')) return true;
  if (url.protocol !== 'https:' || url.port !== '') return false;
  const host = url.hostname.toLowerCase();
  return !isIpLiteral(host) && !isLocalName(host);
};

/** A stored device, as its owner sees it: the push service's host stands for the browser. */
export const pushDeviceSchema = z.object({ id: z.string(), service: z.string(), created_at: z.string() });
export type PushDevice = z.infer<typeof pushDeviceSchema>;

/** What a push carries to the service worker (encrypted end to end; the push service sees none of it). */
export interface PushPayload {
  title: string;
  body: string;
  /** The alert's id: the notification's tag, so a second copy replaces the first on the device. */
  tag: string;
  /** The vat's page, opened by a click. */
  url: string;
  /** The signed acknowledgement (alert, farm, user, expiry) the service worker sends back: it has no session. */
  ack: string;
  /** Where to send `ack` (the public /api/user endpoint). */
  ack_url: string;
}

/** The vat's page a push opens: the milk dashboard on that farm, scrolled to the vat's card. */
export const vatPagePath = (farmId: string, vatNumber: number): string => `/dts/dashboard?farm=${encodeURIComponent(farmId)}&vat=${vatNumber}`;
