import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { createLogger } from '../../lambdas/lib/logger';
import { makeWatchman } from '../../lambdas/watchman/job';
import { watchmanTables } from '../support/watchman-tables';
import { operatorContracts } from '../../shared/api/actions/operator';
import { browserTestFile, signInAt, withShot } from '../support/browser';

/**
 * Watchman in Chromium, as Admin: the Activity tab shows a run and a farm's open case (expandable,
 * with a link to the vat's device page); on the Settings tab a changed threshold is saved (Success),
 * and a negative signal strength shows the field's error and stores nothing.
 */
const env = browserTestFile('watchman');
let settingsNow: () => Promise<Record<string, unknown>>;

beforeAll(async () => {
  if (!env.run) return;
  const { farmsTable, readingsTable, alertsTable } = env.stack.facts.dynamodb;
  const tables = watchmanTables(createDocumentClient(), farmsTable, readingsTable, alertsTable);
  const job = makeWatchman({ ...tables, now: () => new Date(), log: createLogger({ test: 'watchman-browser' }, 'error') });
  const outcome = await job.run();
  if (!outcome.ran) throw new Error('watchman did not run');
  await tables.watchman.openCase({
    farm_id: 'farm-pro',
    fonterra_id: '31245',
    timezone: 'Pacific/Auckland',
    vat: 2,
    device_id: 'dev-31245-2',
    check: 'agitator_probe',
    evidence: '3 hours below 30 rpm while it must stir',
    opened_at: new Date().toISOString(),
    closed_at: null,
  });
  const admin = await env.stack.signIn('admin@vatman.local');
  settingsNow = async () => {
    const res = await env.stack.post('/api/watchman', { type: 'GET_SETTINGS' }, admin);
    return operatorContracts.GET_SETTINGS.answer.parse(res.body).settings;
  };
}, 120_000);
afterAll(async () => undefined);

describe.skipIf(!env.run)('Watchman (/dts/watchman) as Admin', () => {
  it('shows the runs and the open cases per farm, and saves a changed threshold; a negative one is refused', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1500, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, env.web, 'admin@vatman.local', '/dts/watchman');
    await withShot(page, 'watchman', async () => {
      // Activity: the run (the seeded farms have no milkings yet: every watched farm is dry).
      const table = page.getByRole('table', { name: 'Watchman runs' });
      await table.waitFor();
      expect(await table.locator('tbody tr').count()).toBe(1);
      const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
      expect(cells).toHaveLength(18);
      expect(Number(cells[2])).toBeGreaterThan(0);
      expect(cells[2]).toBe(cells[4]);
      await page.getByText('31245: 1 open case').click();
      await page.getByText(/Vat 2 · Agitator probe/).waitFor();
      expect(await page.getByRole('link', { name: 'Device', exact: true }).getAttribute('href')).toBe('/dts/device/dev-31245-2');

      // Settings: change a threshold, Save Changes, Success.
      await page.getByRole('tab', { name: 'Settings' }).click();
      const strength = page.getByLabel('Minimum signal strength', { exact: true });
      await expect.poll(() => strength.inputValue()).toBe('20');
      await strength.fill('25');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').textContent()).toBe('Success');
      await dialog.getByRole('button', { name: 'OK' }).click();
      expect((await settingsNow()).minimum_signal_strength).toBe(25);

      // A negative signal strength: the field's error, no dialog, nothing stored.
      await strength.fill('-5');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Minimum signal strength must be 0 or more').waitFor();
      expect(await strength.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect((await settingsNow()).minimum_signal_strength).toBe(25);
    });
    await context.close();
  }, 120_000);
});
