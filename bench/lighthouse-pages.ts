/**
 * bench:web's signed-in pages beyond the farmer's: an Admin's browser context, signed in through the
 * login page's two steps (password, then the authenticator code from the seeded secret, as every
 * operator signs in), for /dts/devices with the 2,000-device fleet (bench/device-fleet.ts).
 */
import type { Browser, Page } from 'puppeteer-core';
import { DEMO_PASSWORD } from '../local/seed/demo-data';
import { totpCode } from '../local/seed/totp';
import { seededTotpSecret } from '../test/support/local-stack';

export const ADMIN = 'admin@vatman.local';

/** A page of its own context (its own storage), signed in as `email`; the code step answered when asked. */
export const signedInPage = async (browser: Browser, web: string, email: string): Promise<Page> => {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.goto(`${web}/dts/login`);
  await page.locator('::-p-aria(Email)').fill(email);
  await page.locator('::-p-aria(Password)').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction('!location.pathname.endsWith("/login") || document.querySelector("input[name=code]")', { timeout: 30_000 });
  if (await page.$('input[name=code]')) {
    const secret = seededTotpSecret(email);
    if (!secret) throw new Error(`${email} asks for an authenticator code and no secret is known for it`);
    await page.locator('input[name=code]').fill(totpCode(secret));
    await page.keyboard.press('Enter');
    await page.waitForFunction('!location.pathname.endsWith("/login")', { timeout: 30_000 });
  }
  return page;
};

/** The origins to measure: the plain local server (HTTP/1.1) and the HTTP/2 front, or one of them (HTTP1=1, H2=1). */
export const originsToMeasure = (plain: string, h2: string | undefined, env = process.env): { label: string; origin: string }[] =>
  [
    ...(env.H2 === '1' ? [] : [{ label: 'plain npm start server (HTTP/1.1)', origin: plain }]),
    ...(h2 && env.HTTP1 !== '1' ? [{ label: 'HTTP/2 and TLS front (as CloudFront)', origin: h2 }] : []),
  ];
