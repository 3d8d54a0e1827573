import { describe, expect, it } from 'vitest';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { botCheckFromEnv, recaptchaBotCheck as withSecret, ssmSecret } from './bot-check';

const recaptchaBotCheck = (secret: string, fetchFn: Parameters<typeof withSecret>[1]) => withSecret(async () => secret, fetchFn);

const answering = (answer: unknown, ok = true) => {
  const calls: URLSearchParams[] = [];
  const fetchFn = async (_url: string, init: { body: URLSearchParams }) => {
    calls.push(init.body);
    return { ok, json: async () => answer };
  };
  return { calls, fetchFn };
};

describe('bot-check', () => {
  it('is never a silent default: BOT_CHECK must be set, and recaptcha needs its secret', () => {
    expect(() => botCheckFromEnv({})).toThrow('Missing environment variable BOT_CHECK');
    expect(() => botCheckFromEnv({ BOT_CHECK: 'recaptcha' })).toThrow('Missing environment variable RECAPTCHA_SECRET_PARAMETER');
    expect(() => botCheckFromEnv({ BOT_CHECK: 'maybe' })).toThrow(/must be 'off' or 'recaptcha'/);
    expect(botCheckFromEnv({ BOT_CHECK: 'off' }).mode).toBe('off');
    expect(botCheckFromEnv({ BOT_CHECK: 'recaptcha', RECAPTCHA_SECRET_PARAMETER: '/vatman/recaptcha-secret' }).mode).toBe('recaptcha');
  });

  it('passes a good answer and sends the secret and response', async () => {
    const { calls, fetchFn } = answering({ success: true });
    await recaptchaBotCheck('secret', fetchFn).verify('resp', '1.2.3.4');
    expect(Object.fromEntries(calls[0] ?? [])).toEqual({ secret: 'secret', response: 'resp', remoteip: '1.2.3.4' });
  });

  it("maps failures to the spec's two messages (farmer §8)", async () => {
    await expect(recaptchaBotCheck('s', answering({ success: false, 'error-codes': ['timeout-or-duplicate'] }).fetchFn).verify('r')).rejects.toThrow('timeout-or-duplicate');
    await expect(recaptchaBotCheck('s', answering({ success: false, 'error-codes': ['invalid-input-response'] }).fetchFn).verify('r')).rejects.toThrow('invalid-input-response');
    await expect(recaptchaBotCheck('s', answering({ success: true }).fetchFn).verify('')).rejects.toThrow('invalid-input-response');
    await expect(recaptchaBotCheck('s', answering({}, false).fetchFn).verify('r')).rejects.toThrow('unavailable');
  });

  it('reads the secret from SSM once per container, decrypted, and again after a failed read', async () => {
    const asked: GetParameterCommand[] = [];
    let fail = true;
    const client = {
      send: async (command: GetParameterCommand) => {
        asked.push(command);
        if (fail) {
          fail = false;
          throw new Error('throttled');
        }
        return { Parameter: { Value: 'from-ssm' } };
      },
    } as never;
    const secret = ssmSecret(client, '/vatman/recaptcha-secret');
    await expect(secret()).rejects.toThrow('throttled');
    expect(await secret()).toBe('from-ssm');
    expect(await secret()).toBe('from-ssm');
    expect(asked).toHaveLength(2);
    expect(asked[1]?.input).toEqual({ Name: '/vatman/recaptcha-secret', WithDecryption: true });
    const { calls, fetchFn } = answering({ success: true });
    await withSecret(secret, fetchFn).verify('resp');
    expect(calls[0]?.get('secret')).toBe('from-ssm');
  });
});
