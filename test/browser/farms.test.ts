import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { browserTestFile, shot, signInAt, withShot } from '../support/browser';
import { until } from '../support/until';

/**
 * The Farms page in Chromium as the demo Admin (operator §2 Admin farms, §4, §9): the
 * dairy filter and supply search over the cards, the Watch flag flipped and kept over a reload,
 * the settings table, and the hidden billing export downloaded as CSV.
 */
const env = browserTestFile('farms');

const openFarms = async (path = '/dts/farms', width = 1280): Promise<Page> => {
  const context = await env.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await signInAt(page, env.web, 'admin@vatman.local', path);
  await page.getByRole('list', { name: 'Farms' }).waitFor();
  return page;
};

/** The supply numbers on the cards, once they are `want`. */
const cards = async (page: Page, want: string) =>
  until(
    async () => {
      const titles = (await page.getByRole('list', { name: 'Farms' }).getByRole('heading').allTextContents()).join();
      return titles === want ? titles : undefined;
    },
    { timeoutMs: 10_000 },
  );

describe.skipIf(!env.run)('Farms page (Admin)', () => {
  it('filters by dairy, searches the supply number, and keeps a Watch flag flipped over a reload', async () => {
    const page = await openFarms();
    await withShot(page, 'farms-flags', async () => {
      await cards(page, '31245,FON50412,OCD40721,WES118');
      await page.getByLabel('Dairy company').selectOption('FON');
      await cards(page, '31245,FON50412');
      await page.getByLabel('Dairy company').selectOption('NONE-FON');
      await cards(page, 'OCD40721,WES118');
      await page.getByLabel('Dairy company').selectOption('ALL');
      await page.getByRole('searchbox', { name: 'Supply number' }).fill('fon5');
      await cards(page, 'FON50412');
      await page.getByRole('searchbox', { name: 'Supply number' }).fill('');
      await cards(page, '31245,FON50412,OCD40721,WES118');

      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: '31245', exact: true }) });
      expect(await card.getByText('Vat-Man Pro').count()).toBe(2);
      const watch = card.getByRole('checkbox', { name: 'Watch' });
      expect(await watch.isChecked()).toBe(true);
      // A controlled checkbox: React puts the old value back until the click's update renders.
      await watch.click();
      await expect.poll(() => watch.isChecked(), { timeout: 10_000 }).toBe(false);
      // The change is recorded at the bottom once the server has it.
      await page.getByRole('table', { name: 'Changes' }).getByText('Watch off').waitFor();
      await page.reload();
      await page.getByRole('list', { name: 'Farms' }).waitFor();
      const again = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: '31245', exact: true }) });
      await until(async () => ((await again.getByRole('checkbox', { name: 'Watch' }).count()) === 1 ? true : undefined), { timeoutMs: 10_000 });
      expect(await again.getByRole('checkbox', { name: 'Watch' }).isChecked()).toBe(false);
      expect(await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'FON50412', exact: true }) }).getByRole('checkbox', { name: 'Watch' }).isChecked()).toBe(true);

      const settings = page.getByRole('table', { name: 'Farm settings' });
      expect((await settings.locator('tbody tr').allTextContents()).join('|')).toBe('3124530 min08:30|FON5041245 min09:00');
      // The billing export is hidden (operator §2) without ?billing.
      expect(await page.getByRole('button', { name: 'Billing export' }).count()).toBe(0);
    });
    await shot(page, 'farms');
    await page.context().close();
  });

  it('imports milking windows: a file with a bad row stores nothing and names the row; a good one says Success! and fills the table', async () => {
    const page = await openFarms();
    await withShot(page, 'farms-import', async () => {
      const table = page.getByRole('table', { name: 'Farm settings' });
      const rows = async () => (await table.locator('tbody tr').allTextContents()).join('|');
      await table.waitFor();
      const before = await rows();
      const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
      await page.getByLabel('Milking-window CSV').setInputFiles(file('bad.csv', 'supply_number,buffer_duration,end_of_milking\nWES118,25,07:40\n31245,40,8.30\n'));
      await page.getByRole('button', { name: 'Import' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Row 3: end_of_milking must be a time of day as HH:mm (24-hour)');
      expect(await rows()).toBe(before);

      await page.getByLabel('Milking-window CSV').setInputFiles(file('good.csv', 'supply_number,buffer_duration,end_of_milking\nWES118,25,07:40\n31245,40,08:30\n'));
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('status').filter({ hasText: 'Success!' }).waitFor();
      await until(async () => ((await rows()) === '3124540 min08:30|FON5041245 min09:00|WES11825 min07:40' ? true : undefined), { timeoutMs: 10_000 });
      expect(await page.getByRole('alert').filter({ hasText: 'Nothing was imported' }).count()).toBe(0);
      await page.getByRole('table', { name: 'Changes' }).getByText('good.csv (2 rows)').waitFor();
    });
    await page.context().close();
  });

  it('lists alert deliveries that failed for good under Undelivered alerts', async () => {
    // A text the notifier gave up on: recorded, claimed, and settled dead, as the queue does.
    const alerts = dynamoAlertsRepository(createDocumentClient(), process.env.ALERTS_TABLE as string);
    const at = new Date().toISOString();
    const d = { farm_id: 'farm-pro', alert_id: `${at}~dev-31245-1~102`, user_id: 'gone-user', channel: 'sms' as const, due_at: at, created_at: at };
    expect(await alerts.addDelivery(d)).toBe(true);
    const claimed = await alerts.claimDelivery({ ...d, state: 'pending', attempts: 0 }, 'lease-1', new Date(), new Date(Date.now() + 60_000));
    if (!claimed) throw new Error('not claimed');
    expect(await alerts.settleDelivery(claimed, 'lease-1', { state: 'dead', at, error: 'Phone number is opted out' })).toBe(true);
    const page = await openFarms();
    await withShot(page, 'farms-dead-letters', async () => {
      const table = page.getByRole('table', { name: 'Undelivered alerts' });
      const row = table.getByRole('row').filter({ hasText: 'Phone number is opted out' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Totara Downs (31245)');
      expect(await row.textContent()).toContain('Text to gone-user');
    });
  });

  it('downloads the billing CSV from the hidden export', async () => {
    const page = await openFarms('/dts/farms?billing=1');
    await withShot(page, 'farms-billing', async () => {
      await page.getByLabel('Billing month').fill('2026-06');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Billing export' }).click()]);
      expect(download.suggestedFilename()).toBe('billing-2026-06.csv');
      const lines = (await readFile((await download.path()) ?? '', 'utf8')).trim().split('\r\n');
      expect(lines[0]).toBe('month,supply_number,farm,supplier,package,code,quantity,sms_sent,sms_total');
      expect(lines.map((l) => l.split(',')[5])).toEqual(['code', 'DTSVMPRO', 'DTSVMAUTO', 'DTSVMAUTOINST', 'DTSVMLITE', 'DTSVMLITE']);
    });
    await page.context().close();
  });

  it('fits a 375 px phone: one card a row, the page does not scroll sideways', async () => {
    const page = await openFarms('/dts/farms?billing=1', 375);
    await withShot(page, 'farms-phone', async () => {
      await cards(page, '31245,FON50412,OCD40721,WES118');
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
    });
    await shot(page, 'farms-phone');
    await page.context().close();
  });
});
