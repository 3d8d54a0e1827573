import { AdminGetUserCommand, CognitoIdentityProviderClient, UpdateUserAttributesCommand } from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { startTestStack } from '../support/local-stack';
import { until } from '../support/until';

/**
 * /api/setting/profile and /api/farmer/survey (farmer §2.10, §2.16, §4, §7, §8) through the local
 * stack: the codes come from Cognito (cognito-local) by way of the CustomMessage trigger into the
 * outbox, the email as a link to the profile page, the phone's as a text.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let cognito: CognitoIdentityProviderClient;
let token: string;

const EMAIL = 'kiri.profile@example.nz';
const PASSWORD = 'Profile-test-2026!';
const PROFILE = '/api/setting/profile';
const SURVEY = '/api/farmer/survey';

const outbox = async (): Promise<OutboxMessage[]> => (await fetch(stack.facts.sns)).json() as Promise<OutboxMessage[]>;
const newest = (match: (m: OutboxMessage) => boolean, after: number): Promise<OutboxMessage> =>
  until(async () => (await outbox()).slice(after).find(match), { timeoutMs: 10_000, what: 'the message in the outbox' });
const profile = async (t = token) => (await stack.post(PROFILE, { type: 'USER_PROFILE_DATAILS' }, t)).body as Record<string, unknown>;
const cognitoAttributes = async () => {
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.facts.cognito.userPoolId, Username: EMAIL }));
  return Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name, a.Value]));
};

beforeAll(async () => {
  stack = await startTestStack();
  cognito = new CognitoIdentityProviderClient({ endpoint: stack.facts.cognito.endpoint, region: stack.facts.cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const signUp = await stack.post('/api/user', {
    type: 'USER_SIGN_UP',
    user: JSON.stringify({ firstName: 'Kiri', lastName: 'Tester', email: EMAIL, phone: '021 555 0101', password: PASSWORD }),
  });
  expect(signUp.status).toBe(200);
  token = (signUp.body as { token: string }).token;
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('USER_PROFILE_DATAILS', () => {
  it('answers the caller’s own profile with both flags unverified after sign-up', async () => {
    expect(await profile()).toMatchObject({ firstName: 'Kiri', lastName: 'Tester', email: EMAIL, phone: '+64215550101', email_verify: 1, phone_verify: 1, role: 'User' });
  });
});

describe('USER_PROFILE_EDIT_BASE', () => {
  it('changes the names in the profile and in Cognito; the email stays read-only', async () => {
    const res = await stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_BASE', user: JSON.stringify({ firstName: 'Kiriana', lastName: 'Tester-Smith', phone: '+64215550101', email: 'other@example.nz', subscribed: true }) }, token);
    expect(res.status).toBe(200);
    expect(await profile()).toMatchObject({ firstName: 'Kiriana', lastName: 'Tester-Smith', email: EMAIL, subscribed: true });
    expect(await cognitoAttributes()).toMatchObject({ given_name: 'Kiriana', family_name: 'Tester-Smith', email: EMAIL });
  });

  it('refuses an empty name or a short phone with the spec’s message and changes nothing', async () => {
    const before = await profile();
    const blank = await stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_BASE', user: JSON.stringify({ firstName: ' ', lastName: 'X', phone: '+64215550101' }) }, token);
    expect(blank).toEqual({ status: 422, body: { message: 'Please enter your first and last name' } });
    const short = await stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_BASE', user: JSON.stringify({ firstName: 'A', lastName: 'B', phone: '021' }) }, token);
    expect(short).toEqual({ status: 422, body: { message: 'Phone number at least 9' } });
    expect(await profile()).toEqual(before);
  });
});

describe('phone verification (§2.10, §4)', () => {
  it('texts a 6-digit code; a wrong code fails and changes nothing; the right one verifies the phone', async () => {
    const after = (await outbox()).length;
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_SEND_PHONE' }, token)).toEqual({ status: 200, body: 'success' });
    const text = await newest((m) => m.channel === 'sms' && m.to === '+64215550101', after);
    const code = /(\d{6})/.exec(text.message)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect((await outbox()).slice(after).filter((m) => m.channel === 'email')).toEqual([]);

    const wrong = code === '000000' ? '111111' : '000000';
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_PHONE', verification: wrong }, token)).toEqual({ status: 422, body: { message: 'Phone verification failed' } });
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_PHONE', verification: '-12345' }, token)).toEqual({ status: 422, body: { message: 'Phone verification failed' } });
    expect((await profile()).phone_verify).toBe(1);

    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_PHONE', verification: code }, token)).toEqual({ status: 200, body: 'Phone verify success' });
    expect((await profile()).phone_verify).toBe(2);
    expect((await cognitoAttributes()).phone_number_verified).toBe('true');
  });

  it('a new phone is unverified again, in the profile and in Cognito (texts stop until it is verified)', async () => {
    const res = await stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_BASE', user: JSON.stringify({ firstName: 'Kiriana', lastName: 'Tester-Smith', phone: '021 555 0202' }) }, token);
    expect(res.status).toBe(200);
    expect(await profile()).toMatchObject({ phone: '+64215550202', phone_verify: 1 });
    expect(await cognitoAttributes()).toMatchObject({ phone_number: '+64215550202', phone_number_verified: 'false' });
  });
});

describe('email and phone change only through the API', () => {
  // The attack this shuts: the profile saved with someone else's number, then the caller's own
  // number written straight to Cognito, whose code would have marked the other number verified.
  it('refuses the caller writing phone_number or email in Cognito with their own access token; names they may write', async () => {
    const saved = await stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_BASE', user: JSON.stringify({ firstName: 'Kiriana', lastName: 'Tester-Smith', phone: '021 555 0303' }) }, token);
    expect(saved.status).toBe(200);
    for (const attribute of [
      { Name: 'phone_number', Value: '+64215550404' },
      { Name: 'email', Value: 'kiri.elsewhere@example.nz' },
    ]) {
      await expect(cognito.send(new UpdateUserAttributesCommand({ AccessToken: token, UserAttributes: [attribute] }))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'A client attempted to write unauthorized attribute',
      });
    }
    expect(await cognitoAttributes()).toMatchObject({ phone_number: '+64215550303', email: EMAIL });
    await cognito.send(new UpdateUserAttributesCommand({ AccessToken: token, UserAttributes: [{ Name: 'given_name', Value: 'Kiriana' }] }));

    // The code goes to the profile's number, the one it then verifies.
    const after = (await outbox()).length;
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_SEND_PHONE' }, token)).toEqual({ status: 200, body: 'success' });
    const code = /(\d{6})/.exec((await newest((m) => m.channel === 'sms', after)).message)?.[1] ?? '';
    expect((await outbox()).slice(after).filter((m) => m.channel === 'sms').map((m) => m.to)).toEqual(['+64215550303']);
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_PHONE', verification: code }, token)).toEqual({ status: 200, body: 'Phone verify success' });
    expect(await profile()).toMatchObject({ phone: '+64215550303', phone_verify: 2 });
  });
});

describe('email verification (§2.10, §4: 1 → 2 by the link)', () => {
  it('emails a link to /dts/user/profile/{code}; the code from it verifies the email', async () => {
    const after = (await outbox()).length;
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_SEND_EMAIL' }, token)).toEqual({ status: 200, body: 'success' });
    const mail = await newest((m) => m.channel === 'email' && m.to === EMAIL, after);
    expect(mail.subject).toBe('Verify your Vat-Man email');
    const code = new RegExp(`${stack.facts.web}/dts/user/profile/(\\d{6})`).exec(mail.message)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_EMAIL', verification: code === '000000' ? '111111' : '000000' }, token)).toEqual({
      status: 422,
      body: { message: 'Email verification failed' },
    });
    expect((await profile()).email_verify).toBe(1);
    expect(await stack.post(PROFILE, { type: 'USER_PROFILE_VERIFY_CHECK_EMAIL', verification: code }, token)).toEqual({ status: 200, body: 'Email verify success' });
    expect((await profile()).email_verify).toBe(2);
  });
});

describe('USER_PROFILE_EDIT_PASSWORD', () => {
  const change = (password: string, password1: string, password2 = password1) => stack.post(PROFILE, { type: 'USER_PROFILE_EDIT_PASSWORD', password, password1, password2 }, token);

  it('refuses a repeat that differs, a short new password and a wrong current one', async () => {
    expect(await change(PASSWORD, 'New-pass-2026!', 'New-pass-2027!')).toEqual({ status: 422, body: { message: 'The new passwords do not match' } });
    expect(await change(PASSWORD, 'short')).toEqual({ status: 422, body: { message: 'Password must be 8-50' } });
    expect(await change('Not-the-password-1!', 'New-pass-2026!')).toEqual({ status: 422, body: { message: 'The current password is not correct' } });
    await expect(stack.signIn(EMAIL, PASSWORD)).resolves.toBeTruthy();
  });

  it('changes it: the new one signs in, the old one no longer does', async () => {
    expect(await change(PASSWORD, 'New-pass-2026!')).toEqual({ status: 200, body: 'success' });
    await expect(stack.signIn(EMAIL, 'New-pass-2026!')).resolves.toBeTruthy();
    await expect(stack.signIn(EMAIL, PASSWORD)).rejects.toThrow(/422/);
  });
});

describe('the enquiry (§2.16: SURVEY_SUBMIT)', () => {
  it('USER_PROFILE_DATAILS on the survey path answers the user and their farms', async () => {
    const farmer = await stack.signIn('farmer@vatman.local');
    const res = await stack.post(SURVEY, { type: 'USER_PROFILE_DATAILS' }, farmer);
    expect(res.status).toBe(200);
    const body = res.body as { user: { email: string }; farms: { fonterra_id: string }[] };
    expect(body.user.email).toBe('farmer@vatman.local');
    expect(body.farms.map((f) => f.fonterra_id).sort()).toEqual(['31245', 'FON50412', 'OCD40721']);
  });

  it("refuses an enquiry with nothing ticked with the spec's message, storing and sending nothing", async () => {
    const farmer = await stack.signIn('farmer@vatman.local');
    const after = (await outbox()).length;
    const res = await stack.post(SURVEY, { type: 'SURVEY_SUBMIT', products: JSON.stringify({ water: false, effluent: false, soil: false, weather: false, grain: false, asset: false, dairy: false }) }, farmer);
    expect(res).toEqual({ status: 422, body: { message: 'Please select at least one option.' } });
    expect((await outbox()).slice(after)).toEqual([]);
  });

  it('stores the enquiry and mails it to the sales address', async () => {
    const farmer = await stack.signIn('farmer@vatman.local');
    const after = (await outbox()).length;
    const res = await stack.post(SURVEY, { type: 'SURVEY_SUBMIT', products: JSON.stringify({ water: true, effluent: false, soil: false, weather: true, grain: false, asset: false, dairy: true }) }, farmer);
    expect(res).toEqual({ status: 200, body: 'Submit was successful, we will contact you soon.' });
    const mail = await newest((m) => m.channel === 'email' && m.to === 'sales@vatman.local', after);
    expect(mail.subject).toBe('Vat-Man enquiry from Aroha Ngata');
    expect(mail.message).toContain('Interested in: Water, Weather, Dairy Automation');
    expect(mail.message).toContain('Email: farmer@vatman.local');
    expect(mail.message).toMatch(/Supply numbers: .*FON50412/);
    const stored = await createDocumentClient().send(
      new QueryCommand({ TableName: stack.facts.dynamodb.farmsTable, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': `ENQUIRY#${(await profile(farmer))._id as string}` } }),
    );
    expect(stored.Items?.map((i) => i.products as unknown)).toEqual([{ water: true, effluent: false, soil: false, weather: true, grain: false, asset: false, dairy: true }]);
  });
});
