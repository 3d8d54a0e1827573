import { SSMClient } from '@aws-sdk/client-ssm';
import { pushEndpointAllowed } from '../../../shared/alerts/push';
import { PUSH_ENV, type PushAckVerifier, type PushSender } from '../../ports/push';
import { optionalEnv, requireEnv } from '../../lib/env';
import { ssmSecret } from '../bot-check/bot-check';
import { ackVerifier, signAckToken, vapidPrivateKey } from './ack-tokens';
import { webPushRequest } from './web-push-request';
import { instrumented } from '../aws-client';

type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body: Buffer; redirect: 'manual'; signal?: AbortSignal }) => Promise<{ status: number; text(): Promise<string> }>;

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291): web-push-request.ts
 * makes the request (encryption, the VAPID Authorization header, TTL, Urgency, Topic); it is sent with
 * fetch, which takes an abort signal (the delivery lease outlives it) and, on the local stack,
 * plain http to the push-service stand-in. The private key is read from SSM once per container.
 */
export const makeWebPushSender = (config: { publicKey: string; subject: string; ackUrl: string; allowLocal: boolean; privateKey: () => Promise<string> }, fetchFn: Fetch = fetch as unknown as Fetch): PushSender => ({
  ackUrl: config.ackUrl,
  async send(subscription, message, options) {
    // Checked again at send time: a subscription stored under another configuration is never posted to.
    if (!pushEndpointAllowed(subscription.endpoint, config.allowLocal)) throw new Error('push endpoint not allowed by this configuration');
    const key = vapidPrivateKey(config.publicKey, await config.privateKey());
    const request = webPushRequest(subscription, message, { subject: config.subject, publicKey: config.publicKey, key }, new Date());
    const res = await fetchFn(subscription.endpoint, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      // A push service answers, never redirects: a redirect followed could lead the request to an
      // address the endpoint check refused. Not followed, it is a refusal like any 3xx or 4xx.
      redirect: 'manual',
      ...(options?.abortSignal ? { signal: options.abortSignal } : {}),
    });
    if (res.status === 404 || res.status === 410) return { sent: false, gone: true, status: res.status };
    if (res.status >= 200 && res.status <= 299) return { sent: true, status: res.status };
    const reason = `push service answered ${res.status}: ${(await res.text()).slice(0, 200)}`;
    if (res.status >= 300 && res.status <= 499 && res.status !== 408 && res.status !== 429) return { sent: false, gone: false, status: res.status, reason };
    throw new Error(reason);
  },
  async signAck(claims) {
    return signAckToken(vapidPrivateKey(config.publicKey, await config.privateKey()), claims);
  },
});

const allowLocalFrom = (env: NodeJS.ProcessEnv) => optionalEnv(PUSH_ENV.allowLocalEndpoints, env) === '1';

export const webPushSenderFromEnv = (env: NodeJS.ProcessEnv = process.env): PushSender => {
  const endpoint = optionalEnv('SSM_ENDPOINT', env);
  const client = instrumented(new SSMClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1', ...(endpoint ? { endpoint } : {}) }));
  return makeWebPushSender({
    publicKey: requireEnv(PUSH_ENV.publicKey, env),
    subject: requireEnv(PUSH_ENV.subject, env),
    ackUrl: requireEnv(PUSH_ENV.ackUrl, env),
    allowLocal: allowLocalFrom(env),
    privateKey: ssmSecret(client, requireEnv(PUSH_ENV.privateKeyParameter, env)),
  });
};

export const pushAckVerifierFromEnv = (env: NodeJS.ProcessEnv = process.env): PushAckVerifier => ackVerifier(requireEnv(PUSH_ENV.publicKey, env));

