import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserTestFile, openAs as openPage, withShot } from '../support/browser';

/**
 * Spec rows in Chromium against `npm start`'s stack: the unlinked pages (operator §2 'Telemetry
 * and empty pages', farmer §2.3 /dts/blank), the sample settings screen (operator §2 Global
 * elements), the partner pages' 600 px content (operator §9).
 */
const env = browserTestFile('spec-rows');

const openAs = (email: string, path: string, width = 1280): Promise<Page> => openPage(env.browser, env.web, email, path, { width });

describe.skipIf(!env.run)('spec rows (browser)', () => {
  it("operator R22 and farmer row 39: /dts/blank is the shell around an empty container, not 'Promotion 404'", async () => {
    const page = await openAs('farmer@vatman.local', '/dts/blank');
    await withShot(page, 'spec-rows-blank', async () => {
      // Empty, so it has no height: attached, not visible.
      const blank = page.locator('section.blank-page[aria-label="Blank page"]');
      await blank.waitFor({ state: 'attached' });
      expect(await blank.textContent()).toBe('');
      expect(await page.getByText('Promotion 404').count()).toBe(0);
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    });
    await page.context().close();
  });

  it('operator R22: the telemetry placeholder page says where the telemetry is, and its links work', async () => {
    const page = await openAs('admin@vatman.local', '/dts/telemetry');
    await withShot(page, 'spec-rows-telemetry', async () => {
      await page.getByRole('heading', { name: 'Telemetry' }).waitFor();
      expect(await page.getByText(/coming soon/i).count()).toBe(0);
      await page.getByRole('link', { name: 'Device list' }).click();
      await page.waitForURL((u) => u.pathname === '/dts/devices');
      await page.goBack();
      await page.getByRole('link', { name: 'external telemetry interface' }).click();
      await page.getByRole('heading', { name: 'Pre - Requisites' }).waitFor();
    });
    await page.context().close();
  });

  it('operator S61: the unrouted settings screen with sample Herds and Staff tables, labelled as sample data, on /test', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.web}/test`);
    await withShot(page, 'spec-rows-sample-settings', async () => {
      const screen = page.getByRole('region', { name: 'Settings (sample)' });
      await screen.waitFor();
      expect(await screen.getByText('Sample data only').count()).toBe(1);
      expect(await screen.getByRole('table', { name: 'Herds' }).locator('th').allTextContents()).toEqual(['Herd', 'Cows', 'Milking', 'Vat']);
      expect(await screen.getByRole('table', { name: 'Staff' }).locator('th').allTextContents()).toEqual(['Name', 'Role', 'Phone']);
    });
    // Not routed: no path of its own.
    await page.goto(`${env.web}/dts/settings`);
    await page.getByText('Promotion 404').waitFor();
    await context.close();
  });

  it.each([
    ['milkquality@vatman.local', '/dts/fonterra/milkquality'],
    ['westlands@vatman.local', '/dts/westlands/data'],
  ])('operator S63: %s at 1280 px: the partner page content %s is at most 600 px wide', async (email, path) => {
    const page = await openAs(email, path);
    await withShot(page, `spec-rows-partner-${email.split('@')[0] ?? ''}`, async () => {
      const content = page.locator('main.partner-content');
      await content.getByRole('button', { name: 'View' }).waitFor();
      expect(await page.evaluate("getComputedStyle(document.querySelector('main.partner-content')).maxWidth")).toBe('600px');
      expect((await content.boundingBox())?.width).toBeLessThanOrEqual(600);
    });
    await page.context().close();
  });
});
