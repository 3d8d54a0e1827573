import { describe, expect, it } from 'vitest';
import { botCheckFromEnv, recaptchaBotCheck } from './bot-check';

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
    expect(() => botCheckFromEnv({ BOT_CHECK: 'recaptcha' })).toThrow('Missing environment variable RECAPTCHA_SECRET');
    expect(() => botCheckFromEnv({ BOT_CHECK: 'maybe' })).toThrow(/must be 'off' or 'recaptcha'/);
    expect(botCheckFromEnv({ BOT_CHECK: 'off' }).mode).toBe('off');
    expect(botCheckFromEnv({ BOT_CHECK: 'recaptcha', RECAPTCHA_SECRET: 's' }).mode).toBe('recaptcha');
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
});
