import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import { LIVE_MONITORING_SITE_PATH } from '../../local/stand-ins/web-hosting';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { browserTestFile, farmContext, openAs as openPage, signIn, withShot } from '../support/browser';

/**
 * Spec rows in Chromium against `npm start`'s stack: the unlinked pages (operator §2 'Telemetry
 * and empty pages', farmer §2.3 /dts/blank), the sample settings screen (operator §2 Global
 * elements), the partner pages' 600 px content (operator §9); farmer rows 2 (the live-monitoring
 * link), 126 (promotion banners and their seen flags), 224 (the help player), 220 (the outage banner).
 */
const env = browserTestFile('spec-rows');
/** The web app's two seen-flag cookies (frontend/src/features/module-dashboard/utils/seen-flags.ts). */
const SEEN_FLAG_COOKIES = { compliance: 'vatman_seen_compliance', auto: 'vatman_seen_auto' } as const;

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

  it('farmer row 2: the module dashboard links to the sibling live-monitoring site from the config, and the link leads somewhere', async () => {
    const page = await openAs('farmer@vatman.local', '/dashboard');
    await withShot(page, 'spec-rows-live-monitoring', async () => {
      const link = page.getByRole('region', { name: 'Live monitoring' }).getByRole('link');
      expect(await link.getAttribute('href')).toBe(`${env.web}${LIVE_MONITORING_SITE_PATH}`);
      const [site] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await site.getByRole('heading', { name: 'Live monitoring (local stand-in)' }).waitFor();
    });
    await page.context().close();
  });

  it('farmer row 126: two promotion banners; each closed one sets its own seen-flag cookie and never shows again', async () => {
    // On the Lite farm: the Auto banner is for farms without the controller.
    const page = await (await farmContext(env.browser, env.web, 'farm-lite')).newPage();
    await page.goto(`${env.web}/dts/login`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL((u) => !u.pathname.startsWith('/dts/login'));
    await page.goto(`${env.web}/dashboard`);
    await withShot(page, 'spec-rows-promotions', async () => {
      const compliance = page.getByRole('complementary', { name: 'Your cooling compliance record' });
      const auto = page.getByRole('complementary', { name: 'Vat-Man Auto runs your vat for you' });
      await compliance.waitFor();
      await auto.waitFor();
      await compliance.getByRole('button', { name: 'Close: Your cooling compliance record' }).click();
      await compliance.waitFor({ state: 'detached' });
      const cookies = await page.context().cookies();
      const seen = cookies.find((c) => c.name === SEEN_FLAG_COOKIES.compliance);
      expect(seen?.value).toBe('1');
      // Asked for 100 years; Chromium keeps at most 400 days, and the app writes it again each visit.
      expect((seen?.expires ?? 0) * 1000).toBeGreaterThan(Date.now() + 399 * 86_400_000);
      expect(cookies.some((c) => c.name === SEEN_FLAG_COOKIES.auto)).toBe(false);
      await page.reload();
      await auto.waitFor();
      expect(await compliance.count()).toBe(0);
      // Following a banner's link counts as seen too.
      await auto.getByRole('link', { name: 'Ask about Vat-Man Auto' }).click();
      await page.waitForURL((u) => u.pathname === '/dts/survey');
      await page.goto(`${env.web}/dashboard`);
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      await page.getByRole('region', { name: 'Other monitoring solutions' }).waitFor();
      expect(await page.locator('aside.promotion').count()).toBe(0);
    });
    await page.context().close();
  });

  it('farmer row 224: the help player opens from the user menu and starts playing after 3 seconds', async () => {
    const page = await openAs('farmer@vatman.local', '/dts/dashboard');
    await withShot(page, 'spec-rows-help-player', async () => {
      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('menuitem', { name: 'Help' }).click();
      const dialog = page.getByRole('dialog', { name: 'Help' });
      const status = dialog.getByRole('status', { name: 'Player' });
      await status.waitFor();
      const opened = Date.now();
      expect(await status.textContent()).toBe('Starts in 3 seconds');
      expect(await dialog.getByText(/^Step 1 of \d+$/).count()).toBe(1);
      // Then it plays (the step moves on every 8 s from there).
      await dialog.getByText('Playing', { exact: true }).waitFor({ timeout: 10_000 });
      expect(Date.now() - opened).toBeGreaterThanOrEqual(2_500);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
    await page.context().close();
  });

  it('farmer row 220: the outage banner says the farm is offline, and once closed stays closed for that outage over reloads', async () => {
    // The Lite farm's vats last reported 30 minutes ago: every vat quiet, so the farm is offline.
    const client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'spec-rows-outage' });
    const quietSince = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000).toISOString();
    for (const d of DEMO_DEVICES.filter((x) => x.farm_id === 'farm-lite')) {
      await client.publishAsync(telemetryTopic(d.name), JSON.stringify({ published_at: quietSince, milk_level: 800, temp1: 4, agitator_status: 1, state_machine: 'storage' }), { qos: 1 });
    }
    await client.endAsync();
    const token = await env.stack.signIn('farmer@vatman.local');
    for (const until = Date.now() + 30_000; ; ) {
      const res = await env.stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: 'farm-lite' }, token);
      const vats = res.body as { last: { published_at: string } | null }[];
      if (res.status === 200 && vats.length > 0 && vats.every((v) => v.last !== null)) break;
      if (Date.now() > until) throw new Error(`the Lite farm's readings were not ingested: ${JSON.stringify(res.body).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const context = await farmContext(env.browser, env.web, 'farm-lite');
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/login`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL((u) => !u.pathname.startsWith('/dts/login'));
    await page.goto(`${env.web}/dts/dashboard`);
    await withShot(page, 'spec-rows-outage', async () => {
      const banner = page.getByRole('alert', { name: 'Outage' });
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.textContent()).toMatch(/^Outage\. This farm is offline: no vat has sent data since .+\. Check the power and the unit's signal\.Close$/);
      await banner.getByRole('button', { name: 'Close' }).click();
      await banner.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('region', { name: 'Vat 1' }).waitFor();
      expect(await banner.count()).toBe(0);
    });
    await context.close();
  });
});
