import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { browserTestFile, farmContext, signIn, signInAt, withShot } from '../support/browser';

/**
 * The operators' navigation in Chromium (operator §2, §6): every Admin tool one click from the
 * menu at 1280 and 390 px, the Installer's menu holding exactly their tools, the current page
 * marked (also a farm tab's page under Milk), the top bar's search finding a farm by supply
 * number, a device by IMEI and a user by email from the keyboard, and /dts/fleet's figures each
 * opening the filtered list behind it.
 */
const env = browserTestFile('operator-nav');

const ADMIN_TOOLS: readonly [string, string][] = [
  ['Fleet', '/dts/fleet'],
  ['Users', '/dts/users'],
  ['Devices', '/dts/devices'],
  ['Farms', '/dts/farms'],
  ['Config', '/dts/installer/config'],
  ['New Install', '/dts/installer/new'],
  ['Install Log', '/dts/installer/log'],
  ['Check Install', '/dts/installer/check'],
  ['Help', '/dts/installer/help'],
  ['Calibration', '/dts/calibration'],
  ['Watchman', '/dts/watchman'],
  ['Milk Quality', '/dts/milkquality'],
  ['Westlands Data', '/dts/westlandsdata'],
];
const INSTALLER_MENU = ['Fleet', 'Devices', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman'];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const menuLabels = async (page: Page) => (await menu(page).getByRole('link').allTextContents()).map((t) => t.trim());

let admin: Page;

beforeAll(async () => {
  if (!env.run) return;
  // An alert raised on 31245 in the last hour, for the overview's alerts by type.
  const at = new Date(Date.now() - 10 * 60_000).toISOString();
  await dynamoAlertsRepository(createDocumentClient(), env.stack.facts.dynamodb.alertsTable).raise(
    {
      _id: `${at}~nav-101`,
      farm_id: 'farm-pro',
      type: 101,
      status: 1,
      data: { published_at: at, temp1: 10.4, milk_volume: 1500, agitator_status: 1 },
      device: { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 },
      created_at: at,
    },
    false,
  );
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  admin = await context.newPage();
  await admin.goto(`${env.web}/dts/login`);
  await signIn(admin, 'admin@vatman.local');
  await admin.waitForURL((u) => u.pathname === '/dts/fleet');
}, 120_000);
afterAll(async () => admin?.context().close());

describe.skipIf(!env.run)('the Admin menu', () => {
  it('reaches every tool in one click at 1280 px, marking the page it opened', async () => {
    await withShot(admin, 'nav-admin-1280', async () => {
      for (const [label, path] of ADMIN_TOOLS) {
        await menu(admin).getByRole('link', { name: label, exact: true }).click();
        await admin.waitForURL((u) => u.pathname === path);
        await expect.poll(() => menu(admin).locator('[aria-current="page"]').allTextContents()).toEqual([label]);
      }
    });
  });

  it('reaches every tool in one click from the drawer at 390 px, with nothing wider than the screen', async () => {
    await admin.setViewportSize({ width: 390, height: 844 });
    await withShot(admin, 'nav-admin-390', async () => {
      for (const [label, path] of ADMIN_TOOLS) {
        if (!(await menu(admin).isVisible())) await admin.getByRole('button', { name: 'Menu' }).click();
        await menu(admin).getByRole('link', { name: label, exact: true }).click();
        await admin.waitForURL((u) => u.pathname === path);
        // The drawer closes on the way.
        await expect.poll(() => menu(admin).isVisible()).toBe(false);
      }
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
      expect(Number(await admin.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
      await expect.poll(() => admin.getByRole('combobox', { name: 'Search farms, devices and users' }).isVisible()).toBe(true);
    });
    await admin.setViewportSize({ width: 1280, height: 900 });
  });
});

describe.skipIf(!env.run)('the operator search', () => {
  const box = () => admin.getByRole('combobox', { name: 'Search farms, devices and users' });
  const find = async (text: string, option: string | RegExp) => {
    await box().fill(text);
    await admin.getByRole('option', { name: option }).first().waitFor();
  };

  it('opens a farm by supply number with Enter', async () => {
    await withShot(admin, 'nav-search-farm', async () => {
      await find('31245', /Totara Downs/);
      await box().press('Enter');
      await admin.waitForURL((u) => u.pathname === '/dts/farms' && u.searchParams.get('supply') === '31245');
      await expect.poll(() => admin.getByRole('searchbox', { name: /supply/i }).inputValue()).toBe('31245');
    });
  });

  it("opens a device by its unit's IMEI with the arrow keys", async () => {
    await withShot(admin, 'nav-search-imei', async () => {
      await find(DEMO_UNIT_IMEIS['farm-pro'] as string, /vm-31245-2/);
      await box().press('ArrowDown');
      await box().press('ArrowDown');
      await box().press('Enter');
      await admin.waitForURL((u) => u.pathname === '/dts/device/dev-31245-2');
    });
  });

  it('opens a user by email on the Users page', async () => {
    await withShot(admin, 'nav-search-user', async () => {
      await find('farmer@vatman.local', /farmer@vatman\.local/);
      await box().press('Enter');
      await admin.waitForURL((u) => u.pathname === '/dts/users' && u.searchParams.get('search') === 'farmer@vatman.local');
      await admin.getByRole('cell', { name: 'farmer@vatman.local' }).first().waitFor();
    });
  });
});

describe.skipIf(!env.run)('/dts/fleet', () => {
  it('shows each figure, and each link opens the list behind it, filtered', async () => {
    await withShot(admin, 'nav-fleet', async () => {
      await admin.goto(`${env.web}/dts/fleet`);
      for (const heading of ['Units', 'Watchman', 'Alerts in the last 24 hours', 'Installs', 'Texts this month', 'Ingest health']) {
        await admin.getByRole('heading', { level: 2, name: heading }).waitFor();
      }
      for (const label of ['Reporting now', 'Silent over a day', 'Open cases', 'Raised', 'New installs this week', 'Sent', 'Estimated spend', 'Iterator age', 'Dead letters waiting', 'Rejected messages']) {
        await admin.getByText(label, { exact: true }).waitFor();
      }
      // Silent: the device list on its 'down' search.
      const silent = admin.locator('.fleet__figure', { hasText: 'Silent over a day' }).getByRole('link');
      await silent.click();
      await admin.waitForURL((u) => u.pathname === '/dts/devices' && u.searchParams.get('search') === 'down');
      await expect.poll(() => admin.getByRole('searchbox', { name: 'Search devices' }).inputValue()).toBe('down');
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.locator('.fleet__figure', { hasText: 'Reporting now' }).getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/devices' && !u.search);
      // Alerts by type: the farms they were raised on, each the device list on its supply number.
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.getByText('Temperature over 10°C:').click();
      await admin.getByRole('list', { name: 'Farms with Temperature over 10°C' }).getByRole('link', { name: '31245' }).click();
      await admin.waitForURL((u) => u.pathname === '/dts/devices' && u.searchParams.get('search') === '31245');
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.locator('.fleet__figure', { hasText: 'Open cases' }).getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/watchman');
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.locator('.fleet__figure', { hasText: 'New installs this week' }).getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/installer/log' && u.searchParams.get('logType') === 'New Installs');
      await expect.poll(() => admin.getByRole('combobox', { name: /log type/i }).inputValue()).toBe('New Installs');
      await admin.goto(`${env.web}/dts/fleet`);
      await admin.locator('.fleet__figure', { hasText: /^Sent/ }).getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/farms');
    });
  });

  it("the ingest health opens the dead letters waiting and today's rejected messages, with the reason each was refused", async () => {
    // A message the ingest refuses: not JSON.
    const client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'operator-nav-ingest' });
    await client.publishAsync(telemetryTopic('vm-31245-1'), 'not json at all', { qos: 1 });
    await client.endAsync();
    const token = await env.stack.signIn('admin@vatman.local');
    await expect
      .poll(async () => ((await env.stack.post('/api/admin/device', { type: 'INGEST_PROBLEMS' }, token)).body as { rejected: unknown[] }).rejected.length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    await withShot(admin, 'nav-fleet-ingest', async () => {
      await admin.goto(`${env.web}/dts/fleet`);
      const deadLetters = admin.locator('.fleet__figure', { hasText: 'Dead letters waiting' });
      // The figures show '…' until their answer comes.
      await expect.poll(() => deadLetters.locator('dd').textContent()).toBe('0');
      await deadLetters.getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/fleet/ingest');
      await admin.getByRole('heading', { level: 1, name: 'Ingest problems' }).waitFor();
      await expect.poll(() => admin.locator('.fleet__figure', { hasText: 'Waiting for a re-drive' }).locator('dd').textContent()).toBe('0');
      const table = admin.getByRole('table', { name: 'Rejected messages' });
      await table.getByRole('cell', { name: 'payload is not valid JSON' }).first().waitFor();
      await table.getByRole('cell', { name: 'not json at all' }).first().waitFor();
      expect(await admin.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      // The menu marks Fleet on it.
      await expect.poll(() => menu(admin).locator('[aria-current="page"]').allTextContents()).toEqual(['Fleet']);
      await admin.getByRole('link', { name: 'Back to the fleet overview' }).click();
      await admin.locator('.fleet__figure', { hasText: 'Rejected messages' }).getByRole('link').click();
      await admin.waitForURL((u) => u.pathname === '/dts/fleet/ingest');
    });
  });
});

describe.skipIf(!env.run)('the Installer and the farmer', () => {
  it('gives the Installer exactly their tools, landing on the fleet overview', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await withShot(page, 'nav-installer', async () => {
      await page.goto(`${env.web}/dts/login`);
      await signIn(page, 'installer@vatman.local');
      await page.waitForURL((u) => u.pathname === '/dts/fleet');
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await menuLabels(page)).toEqual(INSTALLER_MENU);
    });
    await context.close();
  });

  it('marks Milk on a page reached through the farm tabs', async () => {
    const context = await farmContext(env.browser, env.web, 'farm-pro');
    const page = await context.newPage();
    await withShot(page, 'nav-farmer-tabs', async () => {
      await signInAt(page, env.web, 'farmer@vatman.local', '/dts/equipment');
      await expect.poll(() => menu(page).locator('[aria-current="page"]').allTextContents()).toEqual(['Milk']);
      expect(await page.getByRole('combobox', { name: 'Search farms, devices and users' }).count()).toBe(0);
    });
    await context.close();
  });
});
