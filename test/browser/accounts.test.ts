import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { browserTestFile, signIn, withShot } from '../support/browser';

/**
 * In Chromium against the local stack: sign-up, sign-in, sign-out, password
 * reset through the outbox, the validation messages of farmer §5, and where each role lands.
 * One stack for the whole file; each scenario in its own browser context (own Amplify storage).
 */
const env = browserTestFile('accounts');

const { run } = env;


interface Visit {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every URL path the page showed, in order (router navigations included). */
  readonly visited: string[];
  /** Requests to the API or to Cognito since the visit began (or since `sent.length = 0`). */
  readonly sent: string[];
}

const visit = async (path: string, width = 1280): Promise<Visit> => {
  const context = await env.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const visited: string[] = [];
  const sent: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(`${env.stack.facts.web}/api/`) || url.startsWith(env.stack.facts.cognito.endpoint)) sent.push(url);
  });
  await page.goto(`${env.web}${path}`);
  return { context, page, visited, sent };
};

const path = (page: Page) => new URL(page.url()).pathname;

const menuLabels = async (page: Page, name = 'Main menu') => {
  const nav = page.getByRole('navigation', { name });
  await nav.getByRole('link').first().waitFor();
  return nav.getByRole('link').allTextContents();
};

interface OutboxMessage {
  readonly to: string;
  readonly subject?: string;
  readonly message: string;
  readonly at: string;
}

/** The first mail to `to` since `since` whose text matches `about` (other mail may come meanwhile: the alert-email topic's subscription confirmation). */
const waitForMail = async (to: string, since: number, about: RegExp): Promise<OutboxMessage> => {
  for (let i = 0; i < 100; i += 1) {
    const messages = (await (await fetch(env.stack.facts.sns)).json()) as OutboxMessage[];
    const mail = messages.find((m) => m.to === to && Date.parse(m.at) >= since && about.test(m.message));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} in the outbox`);
};

describe.runIf(run)('accounts in Chromium', () => {
  const email = `hemi.${Date.now()}@example.nz`;
  const firstPassword = 'first-pass-1';
  const newPassword = 'second-pass-2';

  it('signs up, is signed in and lands on /dts/dashboard, which sends a user with no farm to /dts/permission; signs out', async () => {
    const { context, page, visited, sent } = await visit('/dts/register');
    await withShot(page, 'sign-up', async () => {
      await page.getByRole('form', { name: 'Sign up' }).waitFor();
      await page.getByLabel('First name').fill('Hemi');
      await page.getByLabel('Last name').fill('Parata');
      await page.getByLabel('Email').fill(`  ${email} `);
      await page.getByLabel('Phone').fill('021 555 0101');
      await page.getByLabel('Password', { exact: true }).fill(firstPassword);
      await page.getByLabel('Password', { exact: true }).press('Enter');

      await page.getByRole('heading', { name: 'No Permission' }).waitFor();
      expect(path(page)).toBe('/dts/permission');
      // Signed in and sent to the milk dashboard first (farmer §2.1); the shell then finds no farm (farmer §1, §6).
      expect(visited).toContain('/dts/dashboard');
      expect(visited.indexOf('/dts/dashboard')).toBeLessThan(visited.lastIndexOf('/dts/permission'));
      expect(sent.some((url) => url.startsWith(`${env.stack.facts.web}/api/user`))).toBe(true);

      // The account and its user record exist: the API knows the new user.
      const token = await env.stack.signIn(email, firstPassword);
      const me = await env.stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token);
      expect(me.body).toMatchObject({ user: { email, firstName: 'Hemi', lastName: 'Parata', phone: '+64215550101' }, listFarm: [] });

      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('form', { name: 'Sign in' }).waitFor();
      expect(path(page)).toBe('/dts/login');
      // Signed out for real: a protected page now asks for a sign-in, carrying the path back.
      await page.goto(`${env.web}/dts/dashboard`);
      await page.waitForURL(`${env.web}/dts/login/%2Fdts%2Fdashboard`);
    });
    await context.close();
  });

  it('refuses a wrong password with the message; the reset link from the outbox sets a new password that signs in', async () => {
    const { context, page } = await visit('/dts/login');
    await withShot(page, 'reset', async () => {
      await signIn(page, email, 'not-my-password');
      await page.getByText('Incorrect email or password.').waitFor();
      expect(path(page)).toBe('/dts/login');

      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('form', { name: 'Forgot password' }).waitFor();
      const since = Date.now() - 1000;
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Email').press('Enter');
      await page.waitForURL(`${env.web}/dts/password/forgot/finished`);
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();

      const mail = await waitForMail(email, since, /\/dts\/password\/reset\//);
      const link = /https?:\/\/\S+(\/dts\/password\/reset\/\S+)/.exec(mail.message);
      expect(link, mail.message).not.toBeNull();
      await page.goto(`${env.web}${link?.[1] ?? ''}`);
      await page.getByRole('form', { name: 'Reset password' }).waitFor();
      await page.getByLabel('New password').fill(newPassword);
      await page.getByLabel('New password').press('Enter');

      const dialog = page.getByRole('dialog', { name: 'Password has been reset' });
      await dialog.getByText('Enjoy it.').waitFor();
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.waitForURL(`${env.web}/dts/login`);

      await signIn(page, email, firstPassword);
      await page.getByText('Incorrect email or password.').waitFor();
      await signIn(page, email, newPassword);
      // Sign-in goes to /dashboard (farmer §2.1), and with no farm on to the permission page.
      await page.waitForURL(`${env.web}/dts/permission`);
    });
    await context.close();
  });

  it('a signed-in user opening the login page goes straight on (login status)', async () => {
    const { context, page } = await visit('/dts/login');
    await signIn(page, 'farmer@vatman.local', DEMO_PASSWORD);
    await page.waitForURL(`${env.web}/dashboard`);
    await page.goto(`${env.web}/dts/login`);
    await page.waitForURL(`${env.web}/dashboard`);
    await context.close();
  });

  it('signing in returns to the reurl it was sent from', async () => {
    const { context, page } = await visit('/dts/equipment');
    await page.waitForURL(`${env.web}/dts/login/%2Fdts%2Fequipment`);
    await signIn(page, 'farmer@vatman.local', DEMO_PASSWORD);
    await page.waitForURL(`${env.web}/dts/equipment`);
    await page.getByRole('navigation', { name: 'Farm sections' }).waitFor();
    await context.close();
  });
});

describe.runIf(run)('the bot-check widget (spec §7) where config.json carries a site key', () => {
  it('renders the checkbox on sign-up, sends nothing until it is ticked, then sends its answer', async () => {
    const { context, page, sent } = await visit('/dts/login');
    await withShot(page, 'bot-check', async () => {
      // The deployed config.json of a stack with botCheck=recaptcha, and a stand-in for Google's
      // script (the machine is offline): it renders a box whose click is the tick.
      await page.route('**/config.json', async (route) => {
        const config = (await (await route.fetch()).json()) as Record<string, string>;
        await route.fulfill({ json: { ...config, recaptchaSiteKey: 'site-key-1' } });
      });
      await page.route('https://www.google.com/recaptcha/**', (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: `window.grecaptcha = {
            render(el, p) {
              const box = document.createElement('button');
              box.type = 'button';
              box.textContent = 'I am not a robot (' + p.sitekey + ')';
              box.onclick = () => p.callback('answer-for-' + p.sitekey);
              el.appendChild(box);
              return 1;
            },
            reset() {},
          };
          window.vatmanRecaptchaLoaded();`,
        }),
      );
      await page.goto(`${env.web}/dts/register`);
      await page.getByLabel('First name').fill('Kiri');
      await page.getByLabel('Last name').fill('Moana');
      await page.getByLabel('Email').fill(`kiri.${Date.now()}@example.nz`);
      await page.getByLabel('Phone').fill('021 555 0103');
      await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
      sent.length = 0;
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Please tick the box to show you are not a robot').waitFor();
      expect(sent).toEqual([]);

      await page.getByRole('button', { name: 'I am not a robot (site-key-1)' }).click();
      const signUp = page.waitForRequest((r) => r.url() === `${env.stack.facts.web}/api/user` && (r.postData() ?? '').includes('USER_SIGN_UP'));
      await page.getByRole('button', { name: 'Sign up' }).click();
      expect(new URLSearchParams((await signUp).postData() ?? '').get('gRecaptchaResponse')).toBe('answer-for-site-key-1');
      await page.waitForURL(`${env.web}/dts/permission`);
    });
    await context.close();
  });

  it('renders no widget without a site key (the local stack) and sends an empty answer', async () => {
    const { context, page } = await visit('/dts/register');
    await page.getByRole('form', { name: 'Sign up' }).waitFor();
    await page.getByLabel('First name').fill('Tama');
    await page.getByLabel('Last name').fill('Rewi');
    await page.getByLabel('Email').fill(`tama.${Date.now()}@example.nz`);
    await page.getByLabel('Phone').fill('021 555 0104');
    await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
    const signUp = page.waitForRequest((r) => r.url() === `${env.stack.facts.web}/api/user` && (r.postData() ?? '').includes('USER_SIGN_UP'));
    await page.getByRole('button', { name: 'Sign up' }).click();
    expect(new URLSearchParams((await signUp).postData() ?? '').get('gRecaptchaResponse')).toBe('');
    expect(await page.getByTestId('bot-check').count()).toBe(0);
    await page.waitForURL(`${env.web}/dts/permission`);
    await context.close();
  });
});

describe.runIf(run)('validation messages of farmer §5 in Chromium: the first error shows and nothing is sent', () => {
  type Fill = Readonly<Record<string, string>>;

  /** Fills the fields (by label), presses Enter in the last, and expects the message with no request. */
  const expectMessage = async (page: Page, sent: string[], fill: Fill, message: string) => {
    const labels = Object.keys(fill);
    for (const label of labels) await page.getByLabel(label, { exact: true }).fill(fill[label] ?? '');
    sent.length = 0;
    await page.getByLabel(labels.at(-1) ?? '', { exact: true }).press('Enter');
    const shown = page.locator('.form__error');
    await shown.waitFor();
    // Only the first error per form is shown (farmer §5).
    expect(await shown.allTextContents()).toEqual([message]);
    // A moment for a request that should not happen.
    await page.waitForTimeout(150);
    expect(sent).toEqual([]);
  };

  it('the sign-in form', async () => {
    const { context, page, sent } = await visit('/dts/login', 375);
    await withShot(page, 'login-validation', async () => {
      await page.getByRole('form', { name: 'Sign in' }).waitFor();
      await expectMessage(page, sent, { Email: '', Password: '' }, 'Please enter a correct email address');
      await expectMessage(page, sent, { Email: 'farmer@vatman', Password: 'x' }, 'Please enter a correct email address');
      await expectMessage(page, sent, { Email: ' farmer@vatman.local ', Password: '' }, 'Please enter password');
    });
    await context.close();
  });

  it('the sign-up form', async () => {
    const { context, page, sent } = await visit('/dts/register', 375);
    await withShot(page, 'register-validation', async () => {
      await page.getByRole('form', { name: 'Sign up' }).waitFor();
      const good = { 'First name': 'Ana', 'Last name': 'Ruru', Email: 'ana@example.nz', Phone: '0215550102', Password: 'long-enough-1' };
      await expectMessage(page, sent, { ...good, 'First name': '' }, 'Please enter your first name');
      await expectMessage(page, sent, { ...good, 'Last name': '' }, 'Please enter your last name');
      await expectMessage(page, sent, { ...good, Email: 'ana@' }, 'Please enter a correct email address');
      await expectMessage(page, sent, { ...good, Phone: '' }, 'Please enter your phone number');
      await expectMessage(page, sent, { ...good, Phone: '02155' }, 'Phone number at least 9');
      await expectMessage(page, sent, { ...good, Password: '' }, 'Please enter password');
      await expectMessage(page, sent, { ...good, Password: 'short' }, 'Password must be 8-50');
      await expectMessage(page, sent, { ...good, Password: 'x'.repeat(51) }, 'Password must be 8-50');
      // Two errors at once: the first field's message only.
      await expectMessage(page, sent, { ...good, Email: 'bad', Password: 'short' }, 'Please enter a correct email address');
    });
    await context.close();
  });

  it('the forgot-password form', async () => {
    const { context, page, sent } = await visit('/dts/password/forgot', 375);
    await page.getByRole('form', { name: 'Forgot password' }).waitFor();
    await expectMessage(page, sent, { Email: '' }, 'Please enter a correct email address');
    await expectMessage(page, sent, { Email: 'nobody-at-example.nz' }, 'Please enter a correct email address');
    await context.close();
  });

  it('the reset-password form', async () => {
    const { context, page, sent } = await visit('/dts/password/reset/some-token', 375);
    await page.getByRole('form', { name: 'Reset password' }).waitFor();
    await expectMessage(page, sent, { 'New password': '' }, 'Please enter password');
    await expectMessage(page, sent, { 'New password': 'short' }, 'Password must be 8-50');
    await context.close();
  });
});

describe.runIf(run)('where each role lands, and its menus (farmer §2.2, §6; operator §2, §6)', () => {
  it('a farmer lands on the module dashboard with the farmer menu, the farm selector and the logout dialog', async () => {
    const { context, page } = await visit('/dts/login');
    await withShot(page, 'farmer', async () => {
      await signIn(page, 'farmer@vatman.local', DEMO_PASSWORD);
      await page.waitForURL(`${env.web}/dashboard`);
      await page.getByRole('heading', { name: 'Welcome, Aroha' }).waitFor();
      // The demo farmer is herd-enabled (the seed's herd token): the herd link goes to the herd site (farmer §2.2).
      expect(await menuLabels(page)).toEqual(['Dashboard', 'Milk', 'Alerts', 'Herd']);
      const herd = await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Herd' }).getAttribute('href');
      expect(herd).toBe(`${env.web}/herd-site/login?token=herd-demo-aroha-7f3c9a`);

      // The farm selector lists farm codes and searches them; choosing one stores it in the
      // selected-farm cookie (100 years) and reloads the page (farmer §2.2, §3 Cookies, §4).
      const selector = page.getByRole('button', { name: /^Farm/ });
      await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'vatman_farm')).toBe(true);
      const first = (await selector.textContent()) ?? '';
      await selector.click();
      expect((await page.getByRole('option').allTextContents()).sort()).toEqual(['31245', 'FON50412', 'OCD40721']);
      await page.getByRole('combobox', { name: 'Search farms' }).fill('312');
      expect(await page.getByRole('option').allTextContents()).toEqual(['31245']);
      expect(first).not.toContain('31245');
      // A mark on the window that only a page reload removes.
      await page.evaluate(() => Object.assign(globalThis, { beforeReload: true }));
      await page.getByRole('option', { name: '31245' }).click();
      await expect.poll(() => page.evaluate(() => 'beforeReload' in globalThis)).toBe(false);
      await expect.poll(async () => (await page.getByRole('button', { name: /^Farm/ }).textContent()) ?? '').toContain('31245');
      const cookie = (await context.cookies()).find((c) => c.name === 'vatman_farm');
      expect(JSON.parse(decodeURIComponent(cookie?.value ?? '{}'))).toEqual({ _id: 'farm-pro' });
      // Written for 100 years (farmer §3); Chromium caps every cookie at 400 days.
      expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 399 * 24 * 3600);

      // The milk pages sit under the farm tab bar.
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Milk' }).click();
      await page.waitForURL(`${env.web}/dts/dashboard`);
      await expect.poll(() => page.getByRole('navigation', { name: 'Farm sections' }).getByRole('link').allTextContents(), { timeout: 15_000 }).toEqual([
        'Dashboard',
        'Milking',
        'Compliance',
        'Equipment',
        'Notifications',
        'Settings',
      ]);

      // Notification Settings is a page inside the shell (its preferences form), not 'Promotion 404'.
      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Notification Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Notification Settings' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).waitFor();

      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Are you sure you want to logout?' });
      await dialog.getByText('Once you quit, you will need to sign in again to use the service.').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { level: 1, name: 'Notification Settings' }).waitFor();
      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('dialog', { name: 'Are you sure you want to logout?' }).getByRole('button', { name: 'OK' }).click();
      await page.waitForURL(`${env.web}/dts/login`);
    });
    await context.close();
  });

  it('a user with no farm link lands on /dts/permission', async () => {
    const { context, page } = await visit('/dts/login');
    await signIn(page, 'newfarmer@vatman.local', DEMO_PASSWORD);
    await page.waitForURL(`${env.web}/dts/permission`);
    await page.getByRole('heading', { name: 'No Permission' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await context.close();
  });

  it('an Admin lands on /dts/fleet inside the main shell with exactly the Admin menu', async () => {
    const { context, page } = await visit('/dts/login');
    await withShot(page, 'admin', async () => {
      await signIn(page, 'admin@vatman.local', DEMO_PASSWORD);
      await page.waitForURL(`${env.web}/dts/fleet`);
      await page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
      expect(await menuLabels(page)).toEqual([
        'Dashboard',
        'Milk',
        'Alerts',
        'Fleet',
        'Users',
        'Devices',
        'Farms',
        'Config',
        'New Install',
        'Install Log',
        'Check Install',
        'Help',
        'Calibration',
        'Watchman',
        'Milk Quality',
        'Westlands Data',
      ]);
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Westlands Data' }).click();
      await page.waitForURL(`${env.web}/dts/westlandsdata`);
      await page.getByRole('heading', { level: 1, name: 'Westlands Data' }).waitFor();
    });
    await context.close();
  });

  it('Milk Quality lands on /dts/fonterra/milkquality in its own shell with exactly its menu', async () => {
    const { context, page } = await visit('/dts/login');
    await withShot(page, 'milk-quality', async () => {
      await signIn(page, 'milkquality@vatman.local', DEMO_PASSWORD);
      await page.waitForURL(`${env.web}/dts/fonterra/milkquality`);
      await page.getByRole('heading', { level: 1, name: 'Milk Quality' }).waitFor();
      expect(await menuLabels(page)).toEqual(['Milk Quality']);
      await page.getByRole('button', { name: 'Account' }).click();
      expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Priya Profile', 'Logout']);
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Are you sure you want to logout?' });
      await dialog.getByText('Once you quit, you will need to sign in again to use the DTS service.').waitFor();
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.waitForURL(`${env.web}/dts/login`);
    });
    await context.close();
  });

  it('Westlands lands on /dts/westlands/data (operator §2 /redirect); its areas show exactly its menus', async () => {
    const { context, page } = await visit('/dts/login');
    await withShot(page, 'westlands', async () => {
      await signIn(page, 'westlands@vatman.local', DEMO_PASSWORD);
      await page.waitForURL(`${env.web}/dts/westlands/data`);
      await page.getByRole('heading', { level: 1, name: 'Westlands Data' }).waitFor();
      expect(await menuLabels(page)).toEqual(['Westlands Data']);
      await page.goto(`${env.web}/dts/westlandsdata`);
      await page.getByRole('heading', { level: 1, name: 'Westlands Data' }).waitFor();
      expect(await menuLabels(page)).toEqual(['Dashboard', 'Milk', 'Alerts', 'Westlands Data']);
    });
    await context.close();
  });
});
