import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG_OWN_ROLE } from '../../shared/api/actions/admin-user';
import { browserTestFile, shot, signInAt, withShot } from '../support/browser';
import { until } from '../support/until';

/**
 * The Users page in Chromium as the demo Admin (operator §2 Admin users, §5, §8): the
 * three tables, the installer promoted to Admin and back through the pencil's menu (each change
 * kept over a reload), the refusal of the Admin's own role with the spec's snackbar, the search,
 * the herdsman menu, and the changes listed at the bottom.
 */
const env = browserTestFile('users');

const openUsers = async (width = 1280): Promise<Page> => {
  const context = await env.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInAt(page, env.web, 'admin@vatman.local', '/dts/users');
  await page.getByRole('table', { name: 'Admins' }).waitFor();
  return page;
};

/** The emails a table lists, once it lists `want` (the list reloads after each change). */
const emailsIn = async (page: Page, table: string, want: (emails: string[]) => boolean) =>
  until(
    async () => {
      const cells = await page.getByRole('table', { name: table, exact: true }).locator('tbody tr td:nth-child(3)').allTextContents();
      return want(cells) ? cells : undefined;
    },
    { timeoutMs: 10_000 },
  );

const pickRole = async (page: Page, name: string, role: string) => {
  await page.getByRole('button', { name: `Change role of ${name}` }).click();
  await page.getByRole('menuitemradio', { name: new RegExp(`^${role}`) }).click();
};

describe.skipIf(!env.run)('Users page (Admin)', () => {
  it('promotes the demo installer to Admin and back, and refuses the Admin their own role', async () => {
    const page = await openUsers();
    await withShot(page, 'users-roles', async () => {
      expect(await page.getByText("A role change takes effect at the user's next sign-in or token refresh").count()).toBe(1);
      await emailsIn(page, 'Admins', (e) => e.includes('admin@vatman.local'));
      await emailsIn(page, 'Installers', (e) => e.join() === 'installer@vatman.local');
      const others = await emailsIn(page, 'Users', (e) => e.includes('farmer@vatman.local'));
      expect(others).toEqual(expect.arrayContaining(['milkquality@vatman.local', 'westlands@vatman.local', 'newfarmer@vatman.local']));

      await pickRole(page, 'Tom Fraser', 'Admin');
      await emailsIn(page, 'Admins', (e) => e.includes('installer@vatman.local'));
      await emailsIn(page, 'Installers', (e) => e.length === 0);
      await page.reload();
      await emailsIn(page, 'Admins', (e) => e.includes('installer@vatman.local') && e.includes('admin@vatman.local'));

      await pickRole(page, 'Tom Fraser', 'Installer');
      await emailsIn(page, 'Installers', (e) => e.join() === 'installer@vatman.local');
      await page.reload();
      await emailsIn(page, 'Installers', (e) => e.join() === 'installer@vatman.local');

      await pickRole(page, 'Mere Walker', 'User');
      const snackbar = page.getByRole('alert').filter({ hasText: MSG_OWN_ROLE });
      await snackbar.waitFor();
      await page.reload();
      await emailsIn(page, 'Admins', (e) => e.join() === 'admin@vatman.local');
    });
    await page.context().close();
  });

  it('searches the Users table and sets the herdsman flag from the \'Herdsman\' or \'None\' menu (operator §2); every change is listed at the bottom', async () => {
    const page = await openUsers();
    await withShot(page, 'users-herd', async () => {
      await page.getByRole('searchbox', { name: 'Search users' }).fill('REID');
      await emailsIn(page, 'Users', (e) => e.join() === 'newfarmer@vatman.local');
      await page.getByRole('searchbox', { name: 'Search users' }).fill('+64211234502');
      await emailsIn(page, 'Users', (e) => e.join() === 'westfarmer@vatman.local');
      await page.getByRole('searchbox', { name: 'Search users' }).fill('sam');
      const row = page.getByRole('table', { name: 'Users', exact: true }).getByRole('row').filter({ hasText: 'newfarmer@vatman.local' });
      expect(await row.getByText('None').count()).toBe(1);
      await page.getByRole('button', { name: 'Herdsman setting of Sam Reid' }).click();
      const menu = page.getByRole('menu');
      expect(await menu.getByRole('menuitemradio').allTextContents()).toEqual(['Herdsman', 'None']);
      await menu.getByRole('menuitemradio', { name: 'Herdsman' }).click();
      await row.getByText('Herdsman', { exact: true }).waitFor();
      await page.reload();
      const again = page.getByRole('table', { name: 'Users', exact: true }).getByRole('row').filter({ hasText: 'newfarmer@vatman.local' });
      await again.getByText('Herdsman', { exact: true }).waitFor();

      const changes = page.getByRole('table', { name: 'Changes' });
      await changes.waitFor();
      const rows = await until(async () => {
        const r = await changes.locator('tbody tr').allTextContents();
        return r.length >= 3 ? r : undefined;
      }, { timeoutMs: 10_000 });
      expect(rows[0]).toContain('USER_HERD_EDIT');
      expect(rows[0]).toContain('newfarmer@vatman.local');
      expect(rows[1]).toContain('USER_ROLE_EDIT');
      expect(rows[1]).toMatch(/installer@vatman\.local\s*AdminInstaller$/);
      expect(rows[2]).toMatch(/installer@vatman\.local\s*InstallerAdmin$/);
    });
    await shot(page, 'users');
    await page.context().close();
  });

  it("opens the pencil's role menu in full over a one-row table, not clipped by the table's scrolling box", async () => {
    const page = await openUsers();
    await withShot(page, 'users-menu', async () => {
      await emailsIn(page, 'Installers', (e) => e.join() === 'installer@vatman.local');
      await page.getByRole('button', { name: 'Change role of Tom Fraser' }).click();
      const items = page.getByRole('menuitemradio');
      expect(await items.count()).toBe(3);
      for (const item of await items.all()) {
        const box = await item.boundingBox();
        if (!box) throw new Error('a role choice has no box');
        // What a click there would reach: the choice itself, not the table beneath.
        const hit = await page.evaluate(`document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2})?.closest('[role=menuitemradio]')?.textContent ?? null`);
        expect(hit).toBe(await item.textContent());
      }
      await page.keyboard.press('Escape');
    });
    await page.context().close();
  });

  it('fits a 375 px phone: the tables scroll inside the page, the page does not scroll sideways', async () => {
    const page = await openUsers(375);
    await withShot(page, 'users-phone', async () => {
      await page.getByRole('table', { name: 'Users', exact: true }).waitFor();
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
    });
    await page.context().close();
  });
});
