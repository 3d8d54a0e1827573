import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../local/seed/totp';
import { browserTestFile, signIn, TOTP_CODE_LABEL, withShot } from '../support/browser';
import { seededTotpSecret } from '../support/local-stack';

/**
 * Issue 13's acceptance in Chromium against cognito-local: a new Installer without an authenticator
 * app is sent to the enrolment screen, scans (reads) the secret behind the QR code, confirms it
 * with a computed code and reaches the device fleet; signing in again asks for the code.
 */
const env = browserTestFile('operator-totp');
const PASSWORD = 'Totp-pass-1';

describe.runIf(env.run)('operator TOTP enrolment and sign-in', () => {
  it('enrols a new operator, then signs them in with a code from the secret', async () => {
    const email = `totp-${process.pid}@vatman.local`;
    const signUp = await env.stack.post('/api/user', {
      type: 'USER_SIGN_UP',
      gRecaptchaResponse: '',
      user: JSON.stringify({ firstName: 'Tia', lastName: 'Otp', email, phone: '+64211238888', password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
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
        await page.getByLabel(TOTP_CODE_LABEL).fill(totpCode(secret));
        await page.getByRole('button', { name: 'Verify' }).click();
        // Enrolled: the refreshed session carries the claim, so the Installer's landing loads its data.
        await page.waitForURL('**/dts/devices');
        await page.getByRole('table').first().waitFor();

        // Signing in again asks for the code after the password.
        await page.goto(`${env.web}/logout`);
        await page.waitForURL('**/dts/login**');
        await page.getByRole('form', { name: 'Sign in' }).waitFor();
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByLabel('Password', { exact: true }).press('Enter');
        await page.getByRole('form', { name: 'Sign-in code' }).waitFor();
        await page.getByLabel(TOTP_CODE_LABEL).fill(totpCode(secret));
        await page.getByLabel(TOTP_CODE_LABEL).press('Enter');
        await page.waitForURL('**/dts/devices');
        await page.getByRole('table').first().waitFor();
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
        await page.waitForURL('**/dts/users');
      });
    } finally {
      await context.close();
    }
  }, 60_000);
});
