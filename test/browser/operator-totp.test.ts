import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../local/seed/totp';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { until } from '../support/until';
import { browserTestFile, signIn, TOTP_CODE_LABEL, withShot } from '../support/browser';
import { seededTotpSecret } from '../support/local-stack';

/**
 * In Chromium against cognito-local: a new Installer without an authenticator app is sent to the
 * enrolment screen, scans (reads) the secret behind the QR code, turns it on with a computed code,
 * confirms it with the code emailed to their verified address, is signed out, and reaches the
 * device fleet from the next sign-in, which asks for the app's code.
 */
const env = browserTestFile('operator-totp');
const PASSWORD = 'Totp-pass-1';
const outbox = async () => (await (await fetch(env.stack.facts.sns)).json()) as OutboxMessage[];
/** The newest mail to `to` with `subject` after the outbox's first `after` messages. */
const mailTo = (to: string, subject: string, after: number) =>
  until(async () => (await outbox()).slice(after).find((m) => m.to === to && m.subject === subject), { timeoutMs: 10_000, what: subject });

describe.runIf(env.run)('operator TOTP enrolment and sign-in', () => {
  it('enrols a new operator, then signs them in with a code from the secret', async () => {
    const email = `totp-${process.pid}@vatman.local`;
    const signUp = await env.stack.post('/api/user', {
      type: 'USER_SIGN_UP',
      gRecaptchaResponse: '',
      user: JSON.stringify({ firstName: 'Tia', lastName: 'Otp', email, phone: '+64211238888', password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
    // The confirmation code goes to a verified address only: the new user verifies theirs first.
    const { token } = signUp.body as { token: string };
    const before = (await outbox()).length;
    expect((await env.stack.post('/api/setting/profile', { type: 'USER_PROFILE_VERIFY_SEND_EMAIL' }, token)).status).toBe(200);
    const link = (await mailTo(email, 'Verify your Vat-Man email', before)).message;
    const verification = /\/dts\/user\/profile\/(\d{6})/.exec(link)?.[1] ?? '';
    expect((await env.stack.post('/api/setting/profile', { type: 'USER_PROFILE_VERIFY_CHECK_EMAIL', verification }, token)).status).toBe(200);
    const { cognito } = env.stack.facts;
    const idp = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: cognito.userPoolId, Username: email, GroupName: 'Installer' }));

    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await withShot(page, 'totp-enrol', async () => {
        await page.goto(`${env.web}/dts/login`);
        // No app yet: the password alone signs in, and the app goes to the enrolment screen.
        expect(seededTotpSecret(email)).toBeUndefined();
        await signIn(page, email, PASSWORD);
        await page.waitForURL('**/dts/authenticator');
        await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
        const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
        await qr.waitFor();
        expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
        const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
        expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
        // A wrong code is refused on the screen.
        await page.getByLabel(TOTP_CODE_LABEL).fill(totpCode(secret) === '000000' ? '111111' : '000000');
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.getByRole('alert').filter({ hasText: 'That code is not valid' }).waitFor();
        const sentBefore = (await outbox()).length;
        await page.getByLabel(TOTP_CODE_LABEL).fill(totpCode(secret));
        await page.getByRole('button', { name: 'Verify' }).click();
        // The app is on; the emailed code confirms it is the account holder's.
        const mail = await mailTo(email, 'Confirm your Vat-Man authenticator app', sentBefore);
        const emailed = /^(\d{6})$/m.exec(mail.message)?.[1] ?? '';
        await page.getByLabel('Email code').fill(emailed === '000000' ? '111111' : '000000');
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.getByRole('alert').filter({ hasText: 'Enter the 6-digit code from the email' }).waitFor();
        await page.getByLabel('Email code').fill(emailed);
        await page.getByRole('button', { name: 'Verify' }).click();
        // Confirmed: signed out everywhere; the next sign-in asks for the code after the password.
        await page.getByRole('status').filter({ hasText: 'Your authenticator app is confirmed' }).waitFor();
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL('**/dts/login**');
        await page.getByRole('form', { name: 'Sign in' }).waitFor();
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByLabel('Password', { exact: true }).press('Enter');
        await page.getByRole('form', { name: 'Sign-in code' }).waitFor();
        await page.getByLabel(TOTP_CODE_LABEL).fill(totpCode(secret));
        await page.getByLabel(TOTP_CODE_LABEL).press('Enter');
        await page.waitForURL('**/dts/fleet');
        await page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
      });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('signs a seeded operator in through the code step (the shared helper answers it)', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await withShot(page, 'totp-seeded', async () => {
        await page.goto(`${env.web}/dts/login`);
        await signIn(page, 'admin@vatman.local');
        await page.waitForURL('**/dts/fleet');
      });
    } finally {
      await context.close();
    }
  }, 60_000);
});
