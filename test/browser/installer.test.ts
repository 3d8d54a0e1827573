import { readFile } from 'node:fs/promises';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserTestFile, shot, signIn, withShot } from '../support/browser';

/**
 * The installer tools in Chromium (issue 20; operator §2, §4, §5, §8) as the demo installer: a new
 * install for a fresh supply number with two vats (one from the height table, one entered by
 * hand), its certificate files downloaded from the result dialog, the install log showing the
 * entry, and the farm's devices in the admin device list.
 */
const env = browserTestFile('installer');
const IMEI = '352656100008801';
const SUPPLY = '88001';

const openAs = async (email: string, path: string): Promise<Page> => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${env.web}/dts/login`);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith('/dts/login'));
  await page.goto(`${env.web}${path}`);
  return page;
};

const downloadText = async (page: Page, link: string): Promise<string> => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link, exact: true }).click()]);
  return readFile((await download.path()) ?? '', 'utf8');
};

describe.skipIf(!env.run)('new install, install log and device list', () => {
  it('installs two vats for a fresh supply number, downloads the certificate once, logs it, and the devices appear', async () => {
    const page = await openAs('installer@vatman.local', '/dts/installer/new');
    await withShot(page, 'installer-new', async () => {
      const panel = page.getByRole('tabpanel');
      // §5 defaults.
      await expect(panel.getByLabel('Dairy Supplier').inputValue()).resolves.toBe('FON');
      await expect(panel.getByLabel('Product Variant').inputValue()).resolves.toBe('Vat-Man Lite');
      await expect(panel.getByLabel('Number of Vats').inputValue()).resolves.toBe('1');
      await expect(panel.getByLabel('Number of Displays').inputValue()).resolves.toBe('0');
      await panel.getByLabel('IMEI').fill(IMEI);
      await panel.getByLabel('Dairy Supplier').selectOption('OCD');
      await panel.getByLabel('Supply Number').fill(SUPPLY);
      await panel.getByLabel('Product Variant').selectOption('Vat-Man Pro');
      await panel.getByLabel('Number of Vats').selectOption('2');
      await page.getByRole('tab', { name: 'Vat 1' }).click();
      // Vat 1 from the table: the Sidewall row of 18000 L gives 2750 mm.
      await panel.getByLabel('Diameter').selectOption('2875');
      await panel.getByLabel('Capacity').selectOption('18000 Sidewall');
      await expect(panel.getByLabel('Height').inputValue()).resolves.toBe('2750');
      await panel.getByLabel('Radar Serial').fill('R-1');
      await page.getByRole('tab', { name: 'Vat 2' }).click();
      // Nothing is sent while vat 2 is empty: its required fields say so.
      await page.getByRole('button', { name: 'Submit New Install' }).click();
      await expect(panel.getByText('Required Field').count()).resolves.toBe(4);
      await panel.getByRole('switch', { name: 'Manual Vat Input' }).check();
      await panel.getByLabel('Diameter').fill('2500');
      await panel.getByLabel('Capacity').fill('10000');
      await panel.getByLabel('Height').fill('2100');
      await panel.getByLabel("Radar O'Clock").selectOption('10');
      await panel.getByLabel('Radar Serial').fill('R-2');
      await page.getByRole('button', { name: 'Submit New Install' }).click();
      const dialog = page.getByRole('dialog', { name: 'Vat-Man Install Submitted Successfully' });
      await dialog.waitFor({ timeout: 20_000 });
      expect(await dialog.textContent()).toContain(`Vat-Man installed for ${SUPPLY}: 2 vats`);
      const certificate = await downloadText(page, 'Certificate');
      const key = await downloadText(page, 'Private key');
      const ca = await downloadText(page, 'CA certificate');
      // A real certificate from the CA, and the key that belongs to it.
      const x509 = new X509Certificate(certificate);
      expect(x509.verify(new X509Certificate(ca).publicKey)).toBe(true);
      expect(createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'pem' })).toBe(x509.publicKey.export({ type: 'spki', format: 'pem' }));
      await dialog.getByRole('button', { name: 'Close' }).click();
      // §4: not the dairy company's: on to Check Install.
      await page.waitForURL((u) => u.pathname === '/dts/installer/check');
    });
    await shot(page, 'installer-new');

    await withShot(page, 'installer-check', async () => {
      // The new unit has reported nothing yet: the connection is down, and the check stops there (§4).
      await page.getByLabel('Supply Number').fill(SUPPLY);
      await page.getByRole('button', { name: 'Check' }).click();
      await page.getByRole('list', { name: 'Check results' }).getByText('Connection is down').waitFor();
    });

    // The local stack sets no post-install form: the Help page says so rather than linking nowhere.
    await page.goto(`${env.web}/dts/installer/help`);
    await page.getByText("The post-install form's address is not configured", { exact: false }).waitFor();

    await page.goto(`${env.web}/dts/installer/log`);
    await withShot(page, 'installer-log', async () => {
      await page.getByLabel('Supply Number').fill(SUPPLY);
      await page.getByLabel('Log Type').selectOption('New Installs');
      await page.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Install log entries' }).getByRole('listitem');
      await page.getByText('1 entry, page 1 of 1').waitFor();
      await entries.first().getByText(`${SUPPLY} · New Install · Vat-Man installed for ${SUPPLY}: 2 vats`).click();
      const details = await entries.first().textContent();
      expect(details).toContain(IMEI);
      expect(details).toContain('Tom Fraser');
      expect(details).toContain(`unit-${IMEI}`);
    });
    await shot(page, 'installer-log');
    await page.context().close();

    const admin = await openAs('admin@vatman.local', '/dts/devices');
    await withShot(admin, 'installer-devices', async () => {
      const table = admin.getByRole('table');
      await table.waitFor();
      for (const name of [`vm-${SUPPLY}-1`, `vm-${SUPPLY}-2`]) await table.getByRole('link', { name, exact: true }).waitFor();
    });
    await admin.context().close();
  });
});

describe.skipIf(!env.run)('installer vat settings (config)', () => {
  it('searches, says what it did not find, and saves a vat; an added vat needs its required fields', async () => {
    const page = await openAs('installer@vatman.local', '/dts/installer/config');
    await withShot(page, 'installer-config', async () => {
      const panel = page.getByRole('tabpanel');
      await panel.getByRole('button', { name: 'Search' }).click();
      await panel.getByText('Please fill ONE of these fields').waitFor();
      await panel.getByLabel('Supply Number').fill('NOSUCH9');
      await panel.getByRole('button', { name: 'Search' }).click();
      const notFound = page.getByRole('dialog', { name: 'Farm/Particle Not Found' });
      await notFound.getByText('Please try again').waitFor();
      await notFound.getByRole('button', { name: 'Close' }).click();
      await panel.getByLabel('Supply Number').fill('31245');
      await panel.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('tab', { name: 'Vat 4' }).waitFor();
      // Searched by supply number: the IMEI is filled and read-only (§4).
      await expect(panel.getByLabel('IMEI').inputValue()).resolves.toBe('352656100000029');
      await expect(panel.getByLabel('IMEI').getAttribute('readonly')).resolves.not.toBeNull();
      await page.getByRole('tab', { name: 'Vat 2' }).click();
      await expect(panel.getByLabel('Height', { exact: true }).inputValue()).resolves.toBe('2719');
      // A seeded vat has its wedge height and no O'Clock position: it opens with manual radar on.
      await expect(panel.getByLabel('Wedge Height').inputValue()).resolves.toBe('60');
      await panel.getByRole('switch', { name: 'Manual Radar Input' }).uncheck();
      await panel.getByLabel('Radar Serial').fill('RS-NEW-2');
      await panel.getByLabel("Radar O'Clock").fill('8');
      await panel.getByRole('button', { name: 'Submit Vat 2 Changes' }).click();
      const saved = page.getByRole('dialog', { name: 'Vat Update Success' });
      await saved.getByText('Vat 2 updated').waitFor();
      await saved.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('tab', { name: 'Vat 3' }).click();
      await panel.getByRole('button', { name: 'Add Vat 3' }).click();
      await panel.getByRole('button', { name: 'Submit Vat 3 Changes' }).click();
      await expect(panel.getByText('Required Field').count()).resolves.toBe(5);
      await panel.getByRole('button', { name: 'Remove Vat 3' }).click();
      await panel.getByRole('button', { name: 'Add Vat 3' }).waitFor();
    });
    await shot(page, 'installer-config');
    await page.context().close();
  });
});
