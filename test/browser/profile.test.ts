import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../local/seed/demo-data';
import { browserTestFile, shot, signIn, withShot } from '../support/browser';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';

/**
 * In Chromium against the local stack: a new user's profile with email and
 * phone verification by the codes Cognito sends (the outbox), the password change, the enquiry
 * mailed to sales, and where every demo account lands after sign-in.
 */
const env = browserTestFile('profile');

const outbox = async (): Promise<OutboxMessage[]> => (await fetch(env.stack.facts.sns)).json() as Promise<OutboxMessage[]>;
const waitForMessage = async (match: (m: OutboxMessage) => boolean, after: number): Promise<OutboxMessage> => {
  for (let i = 0; i < 100; i += 1) {
    const found = (await outbox()).slice(after).find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no such message in the outbox');
};

const path = (page: Page) => new URL(page.url()).pathname;
const snackbar = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe.runIf(env.run)('profile, verification and enquiry in Chromium', () => {
  const email = `tui.${Date.now()}@example.nz`;
  const password = 'Profile-pass-1';
  const newPassword = 'Profile-pass-2';

  it('a new user names themselves, verifies the email by the link and the phone by the text, and changes the password', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await withShot(page, 'profile', async () => {
      await page.goto(`${env.web}/dts/register`);
      await page.getByRole('form', { name: 'Sign up' }).waitFor();
      await page.getByLabel('First name').fill('Tui');
      await page.getByLabel('Last name').fill('Walker');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone').fill('021 555 0303');
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('heading', { name: 'No Permission' }).waitFor();

      // A new user has no farm: the shell's own pages (no farm needed) still carry the user menu.
      await page.goto(`${env.web}/dts/user/setting`);
      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.waitForURL(`${env.web}/dts/user/profile`);
      const profile = page.getByRole('form', { name: 'Profile' });
      await profile.waitFor();
      expect(await page.getByLabel('Email Address').inputValue()).toBe(email);
      await page.getByRole('button', { name: 'Email not verified: verify it' }).waitFor();
      await page.getByRole('button', { name: 'Phone not verified: verify it' }).waitFor();

      await page.getByLabel('First Name').fill('Tuirina');
      await profile.getByRole('button', { name: 'Save' }).click();
      await snackbar(page, 'Success!');
      await page.getByRole('button', { name: /^Account/ }).filter({ hasText: 'Tuirina' }).waitFor();

      // Email: the dialog sends Cognito's mail; its link opens this page and checks the code.
      let after = (await outbox()).length;
      await page.getByRole('button', { name: 'Email not verified: verify it' }).click();
      await page.getByRole('dialog', { name: 'Verify my Email' }).getByRole('button', { name: 'Send a Email to me' }).click();
      await snackbar(page, 'Please check the email and complete the rest of the operation!');
      const mail = await waitForMessage((m) => m.channel === 'email' && m.to === email, after);
      const link = /https?:\/\/\S+(\/dts\/user\/profile\/\d{6})/.exec(mail.message);
      expect(link, mail.message).not.toBeNull();
      await page.goto(`${env.web}${link?.[1] ?? ''}`);
      await snackbar(page, 'Email verification succeeded');
      await page.waitForURL(`${env.web}/dts/user/profile`);
      await page.getByRole('img', { name: 'Email verified' }).waitFor();

      // Phone: the code comes by text; six digits check themselves.
      after = (await outbox()).length;
      await page.getByRole('button', { name: 'Phone not verified: verify it' }).click();
      const dialog = page.getByRole('dialog', { name: 'Verify my Phone Number' });
      await dialog.getByRole('button', { name: 'Send a Code to me' }).click();
      await snackbar(page, 'Text message has been sent!');
      const text = await waitForMessage((m) => m.channel === 'sms' && m.to === '+64215550303', after);
      const code = /\d{6}/.exec(text.message)?.[0] ?? '';
      await dialog.getByLabel('Please enter verification code').fill(code === '000000' ? '111111' : '000000');
      await snackbar(page, 'Phone verification failed');
      await dialog.getByLabel('Please enter verification code').fill(code);
      await snackbar(page, 'Phone verification succeeded');
      await page.getByRole('img', { name: 'Phone verified' }).waitFor();
      await page.getByRole('img', { name: 'Email verified' }).waitFor();
      await shot(page, 'profile-verified');

      // Password: the three fields clear, and the new password signs in.
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill(password);
      await form.getByLabel('New password', { exact: true }).fill(newPassword);
      await form.getByLabel('Repeat new password').fill(newPassword);
      await form.getByRole('button', { name: 'Change password' }).click();
      await snackbar(page, 'Success!');
      await expect.poll(() => form.getByLabel('Current password').inputValue()).toBe('');
      expect(await form.getByLabel('New password', { exact: true }).inputValue()).toBe('');

      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('dialog', { name: 'Are you sure you want to logout?' }).getByRole('button', { name: 'OK' }).click();
      await signIn(page, email, password);
      await page.getByText('Incorrect email or password.').waitFor();
      await signIn(page, email, newPassword);
      await page.waitForURL(`${env.web}/dts/permission`);
    });
    await context.close();
  });

  it('the demo farmer asks about other solutions: nothing ticked is refused, a choice is mailed to sales', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await withShot(page, 'enquiry', async () => {
      await page.goto(`${env.web}/dts/login`);
      await signIn(page, 'farmer@vatman.local');
      await page.waitForURL(`${env.web}/dashboard`);
      await page.getByRole('link', { name: /Interested in other monitoring solutions\?/ }).click();
      await page.waitForURL(`${env.web}/dts/survey`);
      await page.getByRole('heading', { level: 1, name: 'Enquiry' }).waitFor();
      const supply = page.getByRole('region', { name: 'Supply Number' });
      await supply.getByRole('checkbox').first().waitFor();
      expect(await supply.locator('label').allTextContents()).toEqual(expect.arrayContaining(['31245', 'FON50412', 'OCD40721']));

      const after = (await outbox()).length;
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Please select at least one option.').waitFor();
      await page.getByRole('checkbox', { name: 'Water' }).check();
      await page.getByRole('checkbox', { name: 'Grain Silo' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      await snackbar(page, 'Submit was successful, we will contact you soon.');
      const mail = await waitForMessage((m) => m.channel === 'email' && m.to === 'sales@vatman.local', after);
      expect(mail.subject).toBe('Vat-Man enquiry from Aroha Ngata');
      expect(mail.message).toContain('Interested in: Water, Grain Silo');
      // The page fits a phone: nothing wider than the screen.
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    });
    await context.close();
  });

  const LANDINGS: Record<(typeof DEMO_ACCOUNTS)[number]['role'], string> = {
    Farmer: '/dashboard',
    Admin: '/dts/fleet',
    Installer: '/dts/fleet',
    'Milk Quality': '/dts/fonterra/milkquality',
    Westlands: '/dts/westlands/data',
    'Farmer (no farm)': '/dts/permission',
    'Demo farm (showroom)': '/dashboard',
  };

  it.each(DEMO_ACCOUNTS.map((a) => [a.role, a.email, LANDINGS[a.role]] as const))('%s (%s) lands on %s after sign-in, never passing the No Permission page unless it has no farm', async (_role, account, landing) => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await withShot(page, `landing-${account}`, async () => {
      await page.goto(`${env.web}/dts/login`);
      await signIn(page, account);
      await page.waitForURL(`${env.web}${landing}`);
      if (landing !== '/dts/permission') expect(visited).not.toContain('/dts/permission');
      // /redirect sends the same account to the same place.
      await page.goto(`${env.web}/redirect`);
      await page.waitForURL(`${env.web}${landing}`);
      expect(path(page)).toBe(landing);
    });
    await context.close();
  });
});
