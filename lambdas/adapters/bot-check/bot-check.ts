import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ValidationError } from '../../lib/errors';
import { optionalEnv, requireEnv } from '../../lib/env';
import { type BotCheck, BOT_CHECK_FAILED, BOT_CHECK_STALE } from '../../ports/bot-check';
import { instrumented } from '../aws-client';

const botCheckOff: BotCheck = { mode: 'off', verify: async () => undefined };

type Fetch = (url: string, init: { method: string; body: URLSearchParams; signal: AbortSignal }) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

/** `secret` is asked for at each check; `ssmSecret` remembers it. */
export const recaptchaBotCheck = (secret: () => Promise<string>, fetchFn: Fetch = fetch as unknown as Fetch): BotCheck => ({
  mode: 'recaptcha',
  async verify(response, remoteIp) {
    if (!response) throw new ValidationError(BOT_CHECK_FAILED);
    const body = new URLSearchParams({ secret: await secret(), response, ...(remoteIp ? { remoteip: remoteIp } : {}) });
    const res = await fetchFn('https://www.google.com/recaptcha/api/siteverify', { method: 'POST', body, signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error('reCAPTCHA verification service unavailable');
    const answer = (await res.json()) as { success?: boolean; 'error-codes'?: string[] };
    if (answer.success) return;
    throw new ValidationError((answer['error-codes'] ?? []).includes(BOT_CHECK_STALE) ? BOT_CHECK_STALE : BOT_CHECK_FAILED);
  },
});

/**
 * An SSM SecureString, read once per container (a failed read is tried again at the next call);
 * `fresh` reads it again (a secret that was rotated since).
 */
export const ssmSecret = (client: Pick<SSMClient, 'send'>, name: string): ((fresh?: boolean) => Promise<string>) => {
  let value: Promise<string> | undefined;
  return (fresh = false) => {
    if (fresh) value = undefined;
    value ??= client.send(new GetParameterCommand({ Name: name, WithDecryption: true })).then((res) => {
      const secret = res.Parameter?.Value;
      if (!secret) throw new Error(`SSM parameter ${name} has no value`);
      return secret;
    });
    value.catch(() => (value = undefined));
    return value;
  };
};

export const botCheckFromEnv = (env: NodeJS.ProcessEnv = process.env): BotCheck => {
  const mode = requireEnv('BOT_CHECK', env);
  if (mode === 'off') return botCheckOff;
  if (mode === 'recaptcha') {
    const client = instrumented(new SSMClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' }));
    return recaptchaBotCheck(ssmSecret(client, requireEnv('RECAPTCHA_SECRET_PARAMETER', env)));
  }
  throw new Error(`BOT_CHECK must be 'off' or 'recaptcha', not '${mode}'`);
};
