import { CognitoIdentityProviderClient, InitiateAuthCommand, RespondToAuthChallengeCommand, UpdateUserAttributesCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { adminUserContracts as c, MSG_OWN_ROLE, type AdminUser } from '../../shared/api/actions/admin-user';
import type { AuditEntry } from '../../shared/entities/audit';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { enrolTotp, totpCode } from '../../local/seed/totp';
import { MSG_AUTHENTICATOR_CODE } from '../../shared/api/actions/profile';
import { MSG_TOTP_REQUIRED, TOTP_CLAIM, TOTP_CONFIRMED_ATTRIBUTE } from '../../shared/roles';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { until } from '../support/until';
import { decodeJwt } from '../support/jwt';
import { rememberTotpSecret, startTestStack } from '../support/local-stack';

/**
 * /api/admin/user through the local stack (operator §2 Admin users, §3, §6, §7, §8):
 * roles are Cognito groups, changed with AdminAddUserToGroup / AdminRemoveUserFromGroup, and
 * effective in the next token.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Record<string, string> = {};
const EMAILS = ['admin@vatman.local', 'installer@vatman.local', 'farmer@vatman.local', 'milkquality@vatman.local', 'newfarmer@vatman.local'] as const;
const sub = (email: string) => String(decodeJwt(tokens[email] as string).sub);

const call = (type: keyof typeof c, fields: Record<string, string>, email = 'admin@vatman.local') => stack.post(c[type].path, { type, ...fields }, tokens[email]);
const ok = async <T,>(type: keyof typeof c, fields: Record<string, string> = {}, email = 'admin@vatman.local') => {
  const res = await call(type, fields, email);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const outbox = async (): Promise<OutboxMessage[]> => (await fetch(stack.facts.sns)).json() as Promise<OutboxMessage[]>;
const listed = async (email: string) => (await ok<AdminUser[]>('USER_LIST')).find((u) => u.email === email);

beforeAll(async () => {
  stack = await startTestStack();
  for (const email of EMAILS) tokens[email] = await stack.signIn(email);
}, 180_000);
afterAll(async () => stack?.stop());

describe('who may call it', () => {
  it('refuses every type to a farmer, an installer and a stranger (no token)', async () => {
    const fields: Record<keyof typeof c, Record<string, string>> = {
      USER_LIST: {},
      USER_ROLE_EDIT: { userid: sub('newfarmer@vatman.local'), role: 'Admin' },
      USER_HERD_EDIT: { userid: sub('newfarmer@vatman.local'), is_herd_enabled: '1' },
      USER_AUDIT_LIST: {},
    };
    for (const type of Object.keys(c) as (keyof typeof c)[]) {
      expect((await call(type, fields[type], 'farmer@vatman.local')).status, `${type} as farmer`).toBe(403);
      expect((await call(type, fields[type], 'installer@vatman.local')).status, `${type} as installer`).toBe(403);
      expect((await stack.post(c[type].path, { type, ...fields[type] })).status, `${type} without a token`).toBe(401);
      // A signed-in stranger: an account with no farm and no group.
      expect((await call(type, fields[type], 'newfarmer@vatman.local')).status, `${type} as a user with no farm`).toBe(403);
    }
    // Nothing changed: the new farmer is still a plain user without the herd link.
    expect(await listed('newfarmer@vatman.local')).toMatchObject({ role: 'User', is_herd_enabled: 0 });
  });
});

describe('the list', () => {
  it('gives each user the admin view only, with the role from their Cognito groups', async () => {
    const users = await ok<AdminUser[]>('USER_LIST');
    const byEmail = new Map(users.map((u) => [u.email, u]));
    expect(byEmail.get('admin@vatman.local')?.role).toBe('Admin');
    expect(byEmail.get('installer@vatman.local')?.role).toBe('Installer');
    expect(byEmail.get('milkquality@vatman.local')).toMatchObject({ role: 'Milk Quality', partner_roles: ['Milk Quality'] });
    expect(byEmail.get('westlands@vatman.local')?.role).toBe('Westlands');
    expect(byEmail.get('farmer@vatman.local')?.role).toBe('User');
    for (const u of users) expect(Object.keys(u).sort()).toEqual(['_id', 'created_at', 'email', 'firstName', 'is_herd_enabled', 'lastName', 'partner_roles', 'phone', 'role'].sort());
  });
});

describe('roles', () => {
  it('refuses to change your own role, with the spec\'s message, and changes nothing', async () => {
    const res = await call('USER_ROLE_EDIT', { userid: sub('admin@vatman.local'), role: 'User' });
    expect(res).toEqual({ status: 422, body: { message: MSG_OWN_ROLE } });
    expect((await listed('admin@vatman.local'))?.role).toBe('Admin');
  });

  it('refuses a role outside the menu and an unknown user', async () => {
    expect((await call('USER_ROLE_EDIT', { userid: sub('installer@vatman.local'), role: 'Westlands' })).status).toBe(422);
    expect(await call('USER_ROLE_EDIT', { userid: 'no-such-user', role: 'Admin' })).toEqual({ status: 422, body: { message: 'No such user.' } });
  });

  it('promotes an installer to Admin: the old token still cannot, a fresh sign-in can; then back to Installer', async () => {
    const installer = sub('installer@vatman.local');
    expect(await ok<AdminUser>('USER_ROLE_EDIT', { userid: installer, role: 'Admin' })).toMatchObject({ _id: installer, role: 'Admin' });
    expect((await listed('installer@vatman.local'))?.role).toBe('Admin');
    // The groups are in the token: the change takes effect at the next sign-in or refresh.
    expect((await call('USER_LIST', {}, 'installer@vatman.local')).status).toBe(403);
    tokens['installer@vatman.local'] = await stack.signIn('installer@vatman.local');
    expect((await call('USER_LIST', {}, 'installer@vatman.local')).status).toBe(200);

    expect(await ok<AdminUser>('USER_ROLE_EDIT', { userid: installer, role: 'Installer' })).toMatchObject({ role: 'Installer' });
    tokens['installer@vatman.local'] = await stack.signIn('installer@vatman.local');
    expect((await call('USER_LIST', {}, 'installer@vatman.local')).status).toBe(403);
    // Still an installer: the device fleet is theirs.
    expect((await stack.post('/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }, tokens['installer@vatman.local'])).status).toBe(200);
  });

  it("gives a promoted user operator reach only from a sign-in after the emailed confirmation of their own authenticator app, never by refreshing an older session", async () => {
    // The attack: a password-only session's refresh token, kept; an app enrolled straight through
    // Cognito in a second password-only session; the first session refreshed.
    const password = async () => {
      const res = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'farmer@vatman.local', password: DEMO_PASSWORD }) });
      return res.body as { token: string; refreshToken: string };
    };
    const first = await password();
    const farmer = sub('farmer@vatman.local');
    await ok('USER_ROLE_EDIT', { userid: farmer, role: 'Installer' });
    const { cognito } = stack.facts;
    const client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const refresh = async () =>
      (await client.send(new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: cognito.clientId, AuthParameters: { REFRESH_TOKEN: first.refreshToken } }))).AuthenticationResult?.AccessToken ?? '';
    const fleet = (token: string) => stack.post('/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }, token);
    const checkOnline = (token: string) => stack.post('/api/installer', { type: 'CHECK_ONLINE', supplyNumber: '31245' }, token);
    const refused = { status: 403, body: { message: MSG_TOTP_REQUIRED } };
    try {
      const second = await password();
      const secret = await enrolTotp(client, second.token);
      rememberTotpSecret('farmer@vatman.local', secret);
      const refreshed = await refresh();
      expect(decodeJwt(refreshed)['cognito:groups']).toEqual(['Installer']);
      expect(await fleet(refreshed)).toEqual(refused);
      expect(await checkOnline(refreshed)).toEqual(refused);
      // Even a sign-in with the app's code: the app is not the account holder's until the emailed code confirms it.
      const withApp = await stack.signIn('farmer@vatman.local');
      expect(await fleet(withApp)).toEqual(refused);
      // Nor can the session write the confirmation itself: the web client writes standard attributes only.
      await expect(
        client.send(new UpdateUserAttributesCommand({ AccessToken: withApp, UserAttributes: [{ Name: `custom:${TOTP_CONFIRMED_ATTRIBUTE}`, Value: '1' }] })),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException' });

      // The account holder confirms with the code sent to their verified email.
      const after = (await outbox()).length;
      expect(await stack.post('/api/setting/profile', { type: 'USER_AUTHENTICATOR_CONFIRM_SEND' }, withApp)).toEqual({ status: 200, body: 'success' });
      const mail = await until(async () => (await outbox()).slice(after).find((m) => m.to === 'farmer@vatman.local' && m.subject === 'Confirm your Vat-Man authenticator app'), { timeoutMs: 10_000, what: 'the confirmation email' });
      const code = /^(\d{6})$/m.exec(mail.message)?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const confirm = (c: string) => stack.post('/api/setting/profile', { type: 'USER_AUTHENTICATOR_CONFIRM', code: c }, withApp);
      expect(await confirm(code === '000000' ? '111111' : '000000')).toEqual({ status: 422, body: { message: MSG_AUTHENTICATOR_CODE } });
      // An ID token as the bearer cannot act for the person in Cognito: told to sign in again, not a 500.
      const challenge = await client.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: cognito.clientId, AuthParameters: { USERNAME: 'farmer@vatman.local', PASSWORD: DEMO_PASSWORD } }));
      const answered = await client.send(
        new RespondToAuthChallengeCommand({ ClientId: cognito.clientId, ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: challenge.Session, ChallengeResponses: { USERNAME: 'farmer@vatman.local', SOFTWARE_TOKEN_MFA_CODE: totpCode(secret) } }),
      );
      const idToken = answered.AuthenticationResult?.IdToken ?? '';
      expect(await stack.post('/api/setting/profile', { type: 'USER_AUTHENTICATOR_CONFIRM', code }, idToken)).toEqual({ status: 401, body: { message: 'Please sign in again.' } });
      expect(await confirm(code)).toEqual({ status: 200, body: 'success' });

      // Every older session is signed out: the kept refresh token is dead.
      await expect(refresh()).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      // A sign-in from now on (password and the app's code) is an installer's.
      const fresh = await stack.signIn('farmer@vatman.local');
      expect(Number(decodeJwt(fresh)[TOTP_CLAIM])).toBeGreaterThan(0);
      expect((await fleet(fresh)).status).toBe(200);
      expect((await checkOnline(fresh)).status).not.toBe(403);
    } finally {
      await ok('USER_ROLE_EDIT', { userid: farmer, role: 'User' });
    }
  });

  it('keeps a Milk Quality membership when the menu makes its holder an Installer, and again when made a User', async () => {
    const mq = sub('milkquality@vatman.local');
    expect(await ok<AdminUser>('USER_ROLE_EDIT', { userid: mq, role: 'Installer' })).toMatchObject({ role: 'Installer', partner_roles: ['Milk Quality'] });
    expect(await ok<AdminUser>('USER_ROLE_EDIT', { userid: mq, role: 'User' })).toMatchObject({ role: 'Milk Quality', partner_roles: ['Milk Quality'] });
    const token = await stack.signIn('milkquality@vatman.local');
    expect(decodeJwt(token)['cognito:groups']).toEqual(['MilkQuality']);
  });
});

describe('the herdsman flag', () => {
  it('turns the herd link on with a token id and off again, which removes it', async () => {
    const farms = dynamoFarmRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    const id = sub('newfarmer@vatman.local');
    const on = await ok<AdminUser>('USER_HERD_EDIT', { userid: id, is_herd_enabled: '1' });
    expect(on).toMatchObject({ is_herd_enabled: 1, role: 'User' });
    expect(on).not.toHaveProperty('token_id');
    const stored = await farms.getUser(id);
    expect(stored?.token_id).toMatch(/^[0-9a-f-]{36}$/);
    // On again keeps the same link.
    await ok('USER_HERD_EDIT', { userid: id, is_herd_enabled: '1' });
    expect((await farms.getUser(id))?.token_id).toBe(stored?.token_id);
    // The user's own call now carries the herd link (farmer §2.2).
    const own = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, tokens['newfarmer@vatman.local']);
    expect((own.body as { user: { token_id?: string } }).user.token_id).toBe(stored?.token_id);

    expect(await ok<AdminUser>('USER_HERD_EDIT', { userid: id, is_herd_enabled: '0' })).toMatchObject({ is_herd_enabled: 0 });
    const off = await farms.getUser(id);
    expect(off?.is_herd_enabled).toBe(0);
    expect(off?.token_id).toBeUndefined();
    expect((await call('USER_HERD_EDIT', { userid: id, is_herd_enabled: '2' })).status).toBe(422);
  });
});

describe('the audit list', () => {
  it('records every role and herd change with who, when, before and after, newest first', async () => {
    const entries = await ok<AuditEntry[]>('USER_AUDIT_LIST');
    const mine = entries.filter((e) => e.by.email === 'admin@vatman.local');
    expect(mine.map((e) => [e.action, e.target, e.before, e.after])).toEqual([
      ['USER_HERD_EDIT', 'newfarmer@vatman.local', 'Herdsman', 'None'],
      ['USER_HERD_EDIT', 'newfarmer@vatman.local', 'None', 'Herdsman'],
      ['USER_ROLE_EDIT', 'milkquality@vatman.local', 'Installer', 'Milk Quality'],
      ['USER_ROLE_EDIT', 'milkquality@vatman.local', 'Milk Quality', 'Installer'],
      ['USER_ROLE_EDIT', 'farmer@vatman.local', 'Installer', 'User'],
      ['USER_ROLE_EDIT', 'farmer@vatman.local', 'User', 'Installer'],
      ['USER_ROLE_EDIT', 'installer@vatman.local', 'Admin', 'Installer'],
      ['USER_ROLE_EDIT', 'installer@vatman.local', 'Installer', 'Admin'],
    ]);
    expect(mine.every((e) => e.by._id === sub('admin@vatman.local') && !Number.isNaN(Date.parse(e.at)))).toBe(true);
  });
});
