import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserTestFile, farmContext, signInAt, withShot } from '../support/browser';

/**
 * The web app under its Content-Security-Policy (issue "A stack that deploys and is locked down"):
 * the local static server sends the policy CloudFront sends (shared/web/security-headers.ts), and
 * the sign-in page, the dashboard and the milk charts work under it without one violation.
 */
const env = browserTestFile('security-headers');

/** Chromium reports each blocked load or script in the console, and as a securitypolicyviolation event. */
const watchViolations = async (page: Page): Promise<string[]> => {
  const violations: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  // Runs in the page (a script text: this file is compiled for Node, without the DOM's types).
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => window.reportCspViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber + ' on ' + location.pathname));`,
  });
  return violations;
};

describe.skipIf(!env.run)('security headers', () => {
  it('sends the CSP and the other security headers with the app and its assets', async () => {
    const res = await fetch(`${env.web}/dts/login`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' https://www.google.com/recaptcha/");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The API is the site's own /api/* ('self'); then the live-updates WebSocket.
    expect(csp).toContain(`connect-src 'self' ${new URL(env.stack.facts.live).origin}`);
    expect(csp).not.toContain(new URL(env.stack.facts.api).origin);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect((await fetch(`${env.web}${asset ?? ''}`)).headers.get('content-security-policy')).toBe(csp);
  });

  it('signs in, opens the dashboard and the milk charts with no CSP violation', async () => {
    const context = await farmContext(env.browser, env.web, 'farm-auto');
    const page = await context.newPage();
    const violations = await watchViolations(page);
    await withShot(page, 'csp', async () => {
      await signInAt(page, env.web, 'farmer@vatman.local', '/dashboard');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.goto(`${env.web}/dts/dashboard`);
      // The charts draw as they near the screen: scroll down to them.
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      for (let n = 0; n < 100 && (await page.locator('canvas').count()) === 0; n += 1) {
        await page.evaluate('window.scrollBy(0, 300)');
        await page.waitForTimeout(100);
      }
      await page.locator('canvas').first().waitFor();
    });
    expect(violations).toEqual([]);
    await context.close();
  });
});
