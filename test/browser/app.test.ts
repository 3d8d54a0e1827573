import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, startBrowserStack, type BrowserStack } from '../support/browser';

/** The built app in Chromium against the local stack (run by `npm run test:browser`). */
let env: BrowserStack | undefined;
let stack: BrowserStack['stack'];
let browser: Browser;
let web: string;

const run = browserAvailable();

beforeAll(async () => {
  if (!run) return;
  env = await startBrowserStack('browser');
  ({ stack, browser, web } = env);
});
afterAll(async () => env?.stop());

const open = async (path: string, width = 1280): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${web}${path}`);
  return page;
};

describe.runIf(run)('the web app', () => {
  it('loads its runtime configuration and shows the sign-in form', async () => {
    const page = await open('/dts/login');
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').waitFor();
    await page.getByText('Vat-Man').first().waitFor();
    await page.close();
  });

  it("answers any unknown path with 'Promotion 404'", async () => {
    const page = await open('/no/such/page');
    await page.getByText('Promotion 404').waitFor();
    await page.close();
  });

  it('shows the first validation message and sends nothing for a bad email', async () => {
    const page = await open('/dts/login', 375);
    let apiCalls = 0;
    page.on('request', (r) => {
      if (r.url().startsWith(`${stack.facts.web}/api/`) || r.url().startsWith(stack.facts.cognito.endpoint)) apiCalls += 1;
    });
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Email').press('Enter');
    await page.getByText('Please enter a correct email address').waitFor();
    expect(apiCalls).toBe(0);
    await page.close();
  });

  it('refuses a wrong password with a message, then signs in through Cognito and leaves the login page', async () => {
    const page = await open('/dts/login');
    await page.getByLabel('Email').fill('farmer@vatman.local');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByText('Incorrect email or password.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('VatMan-demo-2026');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${web}/dashboard`);
    await page.close();
  });
});
