import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../local/simulator/simulator';
import { browserTestFile, farmContext, scrollToChart, signIn, withShot } from '../support/browser';
import { simulateDemoFarm } from '../support/demo-farm-readings';

/**
 * Every screen a farmer and an operator use, checked with axe-core (WCAG 2.1 A and AA) in
 * Chromium, on the Auto farm with 12 hours of simulated readings (a milking and its cooling), so the cards, tiles, charts and
 * tables are checked with their data (an empty farm hides most of them). The target is
 * accessibility 100; Lighthouse measures two pages, this every page.
 */
const env = browserTestFile('accessibility');
const FARM = 'farm-auto';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's WCAG 2.1 A/AA violations: rule, impact, and the first elements it names. */
const violations = async (page: Page): Promise<string[]> => {
  // Through the DevTools protocol, which the page's CSP does not govern (an injected script tag would be refused).
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = globalThis as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } };
    const r = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
};

let sim: SimulatorHandle | undefined;

describe.skipIf(!env.run)('accessibility of every screen (axe-core, WCAG 2.1 AA)', () => {
  beforeAll(async () => {
    sim = await simulateDemoFarm(env.stack.facts.mqtt, FARM, 12);
  }, 120_000);
  afterAll(async () => sim?.stop());

  /** Opens each page signed in as `email` (signed out without one) and answers each one's violations (none expected). */
  const check = async (email: string | undefined, pages: readonly { path: string | ((page: Page) => Promise<string>); ready: (page: Page) => Promise<unknown> }[], width?: number) => {
    const context = await farmContext(env.browser, env.web, FARM, width ? { width } : {});
    const page = await context.newPage();
    const first = pages[0]!.path as string;
    if (email) {
      await page.goto(`${env.web}${first}`);
      await signIn(page, email);
      await page.waitForURL(`${env.web}${first}`);
    }
    const found: Record<string, string[]> = {};
    for (const entry of pages) {
      const path = typeof entry.path === 'string' ? entry.path : await entry.path(page);
      const { ready } = entry;
      await withShot(page, `a11y${path.replaceAll('/', '-')}`, async () => {
        if (!page.url().endsWith(path)) await page.goto(`${env.web}${path}`);
        await ready(page);
        // Whatever is still arriving (a chart's idle turn, a late query) is part of the page too.
        await page.waitForLoadState('networkidle');
        const v = await violations(page);
        if (v.length > 0) found[path] = v;
      });
    }
    await context.close();
    return found;
  };
  /** The page's own heading has shown (its data then arrives before the network is idle). */
  const pageHeading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
  /** A detail page: opened from the first control named `name` on the page `list` (a milking's point, a storage's View). */
  const detailFrom = (list: string, name: RegExp) => async (page: Page) => {
    await page.goto(`${env.web}${list}`);
    const control = page.getByRole(list === '/dts/milking' ? 'button' : 'link', { name }).first();
    // As a keyboard does: a milking's point is a button the size of the point, shown on focus.
    await control.waitFor({ state: 'attached', timeout: 30_000 });
    await control.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname !== list);
    return new URL(page.url()).pathname;
  };

  // A page is its path (ready when its heading shows) or a path found on the way, with its own "ready".
  const farmerPages = [
    // The charts draw as they near the screen: scrolled to the last, every one has drawn.
    { path: '/dts/dashboard', ready: (p: Page) => scrollToChart(p, 'Vat 4 temperatures') },
    '/dts/dashboard/data',
    '/dts/milking',
    { path: detailFrom('/dts/milking', /^Open milking/), ready: pageHeading },
    { path: detailFrom('/dts/dashboard/data', /^View the storage/), ready: pageHeading },
    ...['/dts/compliance', '/dts/agitator', '/dts/collection', '/dts/notification', '/dts/setting/alert', '/dts/user/setting', '/dts/user/profile', '/dts/equipment', '/dashboard'],
  ];
  const operatorPages = ['/dts/users', '/dts/farms', '/dts/devices', '/dts/calibration', '/dts/watchman', '/dts/milkquality', '/dts/installer/new', '/dts/installer/check', '/dts/installer/log'];
  const SCREENS: Record<string, { email?: string; width?: number; pages: (string | { path: string | ((page: Page) => Promise<string>); ready: (page: Page) => Promise<unknown> })[] }> = {
    "the farmer's screens, with readings": { email: 'farmer@vatman.local', pages: farmerPages },
    // Where farmers use it: a phone's width, with the menu folded away and the tabs scrolling sideways.
    "the farmer's screens on a phone": { email: 'farmer@vatman.local', width: 412, pages: farmerPages },
    'the signed-out pages, on a phone': { width: 412, pages: ['/dts/login', '/dts/register', '/dts/password/forgot'] },
    "the partners' views": { email: 'westlands@vatman.local', pages: ['/dts/westlands/data', '/dts/westlands/profile'] },
    "the operator's screens": { email: 'admin@vatman.local', pages: operatorPages },
    // An installer works from a phone in the shed.
    "the operator's screens on a phone": { email: 'admin@vatman.local', width: 412, pages: operatorPages },
  };
  it.each(Object.entries(SCREENS))('%s', async (_name, { email, width, pages }) => {
    expect(await check(email, pages.map((p) => (typeof p === 'string' ? { path: p, ready: pageHeading } : p)), width)).toEqual({});
  }, 300_000);
});
