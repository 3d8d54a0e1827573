import { describe, expect, it } from 'vitest';
import { BOT_CHECK_FAILED, type BotCheck } from '../ports/bot-check';
import { ValidationError } from '../lib/errors';
import { signUpBotCheck } from './sign-up-bot-check';

const event = (triggerSource: string, request: Record<string, unknown>) =>
  ({ version: '1', region: 'us-east-1', userPoolId: 'p', userName: 'u', callerContext: { awsSdkVersion: '1', clientId: 'c' }, triggerSource, request: { userAttributes: {}, ...request }, response: {} }) as never;

describe('the pre-sign-up bot-check', () => {
  const seen: string[] = [];
  const botCheck: BotCheck = {
    mode: 'recaptcha',
    verify: async (answer) => {
      seen.push(answer);
      if (answer !== 'good') throw new ValidationError(BOT_CHECK_FAILED);
    },
  };
  const trigger = signUpBotCheck(botCheck);

  it('lets a sign-up through with a good answer in ValidationData or ClientMetadata', async () => {
    await expect(trigger(event('PreSignUp_SignUp', { validationData: { gRecaptchaResponse: 'good' } }))).resolves.toBeDefined();
    await expect(trigger(event('PreSignUp_SignUp', { clientMetadata: { gRecaptchaResponse: 'good' } }))).resolves.toBeDefined();
  });

  it('refuses a direct SignUp without an answer or with a bad one', async () => {
    await expect(trigger(event('PreSignUp_SignUp', {}))).rejects.toThrow(BOT_CHECK_FAILED);
    await expect(trigger(event('PreSignUp_SignUp', { validationData: { gRecaptchaResponse: 'forged' } }))).rejects.toThrow(BOT_CHECK_FAILED);
    expect(seen.slice(-2)).toEqual(['', 'forged']);
  });

  it("checks USER_SIGN_UP's AdminCreateUser, which always names the answer, empty or not", async () => {
    await expect(trigger(event('PreSignUp_AdminCreateUser', { validationData: { gRecaptchaResponse: 'good' }, clientMetadata: { gRecaptchaResponse: 'good' } }))).resolves.toBeDefined();
    await expect(trigger(event('PreSignUp_AdminCreateUser', { clientMetadata: { gRecaptchaResponse: '' } }))).rejects.toThrow(BOT_CHECK_FAILED);
    await expect(trigger(event('PreSignUp_AdminCreateUser', { validationData: { gRecaptchaResponse: 'forged' } }))).rejects.toThrow(BOT_CHECK_FAILED);
    expect(seen.slice(-3)).toEqual(['good', '', 'forged']);
  });

  it('does not ask an administrator creating an account (no answer named)', async () => {
    const before = seen.length;
    await expect(trigger(event('PreSignUp_AdminCreateUser', {}))).resolves.toBeDefined();
    expect(seen.length).toBe(before);
  });
});
