import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeResetToken } from '../../shared/api/actions/user';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { userHandlers } from '../../lambdas/actions/user';
import { cognitoIdentityProvider } from '../../lambdas/adapters/cognito/identity-provider';
import type { ServedAction } from '../../lambdas/lib/dispatch';
import { createLogger } from '../../lambdas/lib/logger';
import type { Ports } from '../../lambdas/ports/action-ports';
import { startTestStack } from '../support/local-stack';

/** Sign-up, password reset and the user record, through the API and the real cognito-local. */
let stack: Awaited<ReturnType<typeof startTestStack>>;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.stop());

const signUp = (user: Record<string, string>) =>
  stack.post('/api/user', { type: 'USER_SIGN_UP', gRecaptchaResponse: '', user: JSON.stringify(user) });

const outbox = async (): Promise<OutboxMessage[]> => (await fetch(stack.facts.sns)).json() as Promise<OutboxMessage[]>;

const waitForMail = async (to: string, since: number, subject?: string): Promise<OutboxMessage> => {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = (await outbox()).filter((m) => m.to === to && Date.parse(m.at) >= since && (subject === undefined || m.subject === subject)).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no email to ${to} in the outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** The new user's session and the code of the verification link sign-up sent them. */
let signUpToken = '';
let verifyCode = '';

const newUser = { firstName: 'Hana', lastName: 'Parata', email: '  Hana.Parata@Example.NZ ', phone: '021 555 0101', password: 'first-pass-1' };

describe('sign-up', () => {
  let token: string;

  it('creates the Cognito user and the profile, normalised, and signs the user in', async () => {
    const since = Date.now() - 1000;
    const res = await signUp(newUser);
    expect(res.status).toBe(200);
    token = (res.body as { token: string }).token;
    const me = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { firstName: 'Hana', lastName: 'Parata', email: 'hana.parata@example.nz', phone: '+64215550101', role: 'User', email_verify: 1, phone_verify: 1 },
      listFarm: [],
      organization: null,
    });
    // Cognito's verification link (the address is unverified until it is followed) beside the alert-email route's
    // confirmation request, and no dead sign-up code.
    const mail = await waitForMail('hana.parata@example.nz', since, 'Verify your Vat-Man email');
    expect(mail.message).toMatch(new RegExp(`${stack.facts.web}/dts/user/profile/\\d{6}`));
    await new Promise((r) => setTimeout(r, 300));
    expect((await outbox()).filter((m) => m.to === 'hana.parata@example.nz' && Date.parse(m.at) >= since).map((m) => m.subject).sort()).toEqual(['AWS Notification - Subscription Confirmation', 'Verify your Vat-Man email']);
    verifyCode = /\/dts\/user\/profile\/(\d{6})/.exec(mail.message)?.[1] ?? '';
    signUpToken = token;
  });

  it('refuses the same email again, whatever its case', async () => {
    const again = await signUp({ ...newUser, email: 'HANA.PARATA@example.nz' });
    expect(again).toEqual({ status: 422, body: { message: 'An account with this email already exists. Please sign in.' } });
  });

  it('removes the Cognito account again when the profile cannot be stored, so the retry signs up', async () => {
    const { cognito } = stack.facts;
    const identity = cognitoIdentityProvider(
      new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      cognito.userPoolId,
      cognito.clientId,
    );
    const signUpAction = userHandlers.find((a) => a.contract.type === 'USER_SIGN_UP') as ServedAction;
    const refused = Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
    const deps = { identity, userProfiles: { putUser: () => Promise.reject(refused) }, now: () => new Date() } as unknown as Ports;
    const email = `profile-fails-${Date.now()}@example.nz`;
    const input = { type: 'USER_SIGN_UP', gRecaptchaResponse: '', user: { ...newUser, email, phone: '+64215550199' } };
    await expect(signUpAction.run(input, { deps, log: createLogger({}, 'error', () => undefined) } as never)).rejects.toThrow('Throughput exceeds');
    const res = await signUp({ ...newUser, email });
    expect(res.status).toBe(200);
  });

  it.each([
    [{ password: 'short' }, 'Password must be 8-50'],
    [{ phone: '12345' }, 'Phone number at least 9'],
    [{ email: 'nope' }, 'Please enter a correct email address'],
    [{ firstName: '' }, 'Please enter your first name'],
    [{ lastName: 'Smith & Sons' }, 'Names may contain letters, spaces, hyphens and apostrophes.'],
  ])('rejects %o with the spec message and creates nothing', async (change, message) => {
    const email = `bad-${Math.random().toString(36).slice(2)}@example.nz`;
    const res = await signUp({ ...newUser, email, ...change });
    expect(res).toEqual({ status: 422, body: { message } });
    if (!('email' in change)) {
      const signIn = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email, password: newUser.password }) });
      expect(signIn.status).toBe(422);
    }
  });

  it('refuses a name with markup in it, which would reach the verification email as a live link', async () => {
    const since = Date.now() - 1000;
    const email = 'markup-in-name@example.nz';
    const res = await signUp({ ...newUser, email, firstName: '<a href="https://evil.example/login">Verify here</a><!--' });
    await new Promise((r) => setTimeout(r, 500));
    const mails = (await outbox()).filter((m) => m.to === email && Date.parse(m.at) >= since);
    expect(mails.filter((m) => m.message.includes('<a href="https://evil.example/login">')).map((m) => m.message)).toEqual([]);
    expect(res).toEqual({ status: 422, body: { message: 'Names may contain letters, spaces, hyphens and apostrophes.' } });
    expect(mails).toEqual([]);
    expect((await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email, password: newUser.password }) })).status).toBe(422);
  });

  it("never returns another user's data, whatever farm is asked for", async () => {
    const me = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN', farm: 'farm-pro' }, token);
    expect((me.body as { user: { email: string }; listFarm: unknown[] }).user.email).toBe('hana.parata@example.nz');
    expect((me.body as { listFarm: unknown[] }).listFarm).toEqual([]);
    expect((await stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-pro' }, token)).status).toBe(403);
  });
});

describe('sign-ups in a row', () => {
  it("send each new user one verification email, worded by the trigger with the user's own name", async () => {
    const since = Date.now() - 1000;
    const people = ['Aroha', 'Bryn', 'Chloé', 'Dmitri', 'Eru'].map((firstName, i) => ({ ...newUser, firstName, email: `in-a-row-${i}@example.nz` }));
    for (const person of people) expect((await signUp(person)).status).toBe(200);
    for (const person of people) {
      const mail = await waitForMail(person.email, since, 'Verify your Vat-Man email');
      expect(mail.message.split('\n')[0]).toBe(`Kia ora ${person.firstName},`);
    }
    // A late second copy, or the sign-up's own code, would show up here.
    await new Promise((r) => setTimeout(r, 300));
    const mails = (await outbox()).filter((m) => m.to.startsWith('in-a-row-') && Date.parse(m.at) >= since && m.subject !== 'AWS Notification - Subscription Confirmation');
    expect(mails.map((m) => [m.to, m.subject]).sort()).toEqual(people.map((p) => [p.email, 'Verify your Vat-Man email']));
  });
});

describe('password reset', () => {
  it('emails a reset link (outbox), resets with it, and only the new password works after', async () => {
    // Cognito sends reset codes only to a verified address (cognito-local does not check): follow the sign-up's link first, as AWS needs.
    expect(await stack.post('/api/setting/profile', { type: 'USER_PROFILE_VERIFY_CHECK_EMAIL', verification: verifyCode }, signUpToken)).toEqual({ status: 200, body: 'Email verify success' });
    const since = Date.now() - 1000;
    const asked = await stack.post('/api/user', { type: 'USER_FORGOT_PASSWORD', user: JSON.stringify({ email: 'hana.parata@example.nz' }) });
    expect(asked).toEqual({ status: 200, body: 'success' });
    const mail = await waitForMail('hana.parata@example.nz', since);
    expect(mail.subject).toBe('Reset your Vat-Man password');
    const link = mail.message.match(/(http\S+\/dts\/password\/reset\/(\S+))/);
    expect(link?.[1]).toContain(`${stack.facts.web}/dts/password/reset/`);
    const token = link?.[2] ?? '';
    expect(decodeResetToken(token)?.email).toBe('hana.parata@example.nz');

    const tampered = `${token.slice(0, token.lastIndexOf('.'))}.000000`;
    const wrong = await stack.post('/api/user', { type: 'USER_RESET_PASSWORD', user: JSON.stringify({ password: 'second-pass-2', token: tampered }) });
    if (tampered !== token) expect(wrong).toEqual({ status: 422, body: { message: 'This reset link is not valid. Please request a new one.' } });
    expect((await stack.post('/api/user', { type: 'USER_RESET_PASSWORD', user: JSON.stringify({ password: 'second-pass-2', token: 'garbage' }) })).status).toBe(422);
    expect((await stack.post('/api/user', { type: 'USER_RESET_PASSWORD', user: JSON.stringify({ password: 'short', token }) })).body).toEqual({ message: 'Password must be 8-50' });

    const reset = await stack.post('/api/user', { type: 'USER_RESET_PASSWORD', gRecaptchaResponse: '', user: JSON.stringify({ password: 'second-pass-2', token }) });
    expect(reset).toEqual({ status: 200, body: 'success' });
    await expect(stack.signIn('hana.parata@example.nz', 'second-pass-2')).resolves.toBeTruthy();
    await expect(stack.signIn('hana.parata@example.nz', 'first-pass-1')).rejects.toThrow(/422/);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = (await outbox()).length;
    const res = await stack.post('/api/user', { type: 'USER_FORGOT_PASSWORD', user: JSON.stringify({ email: 'nobody@example.nz' }) });
    expect(res).toEqual({ status: 200, body: 'success' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await outbox()).length).toBe(before);
  });
});
