import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGANIZATION } from '../../local/seed/demo-data';
import { ORGANIZATION_MESSAGES } from '../../shared/entities/organization';
import { browserTestFile, farmContext, shot, signIn, withShot } from '../support/browser';

/**
 * In Chromium against the local stack: the demo farmer (Admin of the seeded
 * Ngata Farming Group, Vat-Man Pro) opens the group link, sees the Summary with the SMS allowance,
 * adds the second demo farmer by email, unlinks them after the confirmation, and creates and
 * deletes a sub-organization. The second farmer is seeded as a member, so the file first unlinks
 * them through the API: the page then starts without them.
 */
const env = browserTestFile('organization');
const { run } = env;
const ORG = DEMO_ORGANIZATION.organization._id;

beforeAll(async () => {
  if (!run) return;
  const farmer = await env.stack.signIn('farmer@vatman.local');
  const west = await env.stack.signIn('westfarmer@vatman.local');
  const me = (await env.stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, west)).body as { user: { _id: string } };
  const res = await env.stack.post('/api/farmer/organization', { type: 'ORGANIZATION_USER_UNLINK', organization_id: ORG, user_id: me.user._id }, farmer);
  if (res.status !== 200) throw new Error(`setup unlink: ${res.status} ${JSON.stringify(res.body)}`);
}, 60_000);

const confirmDialog = (page: Page) => page.getByRole('dialog', { name: ORGANIZATION_MESSAGES.confirmDelete });
const users = (page: Page) => page.getByRole('table', { name: 'Users' });
const subs = (page: Page) => page.getByRole('table', { name: 'Sub-organization' });

describe.runIf(run)('organization pages (farmer §2.12)', () => {
  it('the demo farmer opens the group link, sees the Summary, adds and unlinks the second farmer, and creates and deletes a sub-organization', async () => {
    const context = await farmContext(env.browser, env.web, 'farm-pro');
    const page = await context.newPage();
    try {
      await page.goto(`${env.web}/dts/dashboard`);
      await signIn(page, 'farmer@vatman.local');
      await withShot(page, 'organization-link', async () => {
        await page.getByRole('link', { name: 'Group' }).click();
        await page.waitForURL(`${env.web}/dts/group/${ORG}`);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ngata Farming Group');
      });

      await withShot(page, 'organization-summary', async () => {
        const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
        expect(await breadcrumb.getByRole('listitem').allTextContents()).toEqual(['All Organization', 'Ngata Farming Group']);
        expect(await page.locator('.organization__heading .organization__chip').textContent()).toBe('Group');
        const summary = page.getByRole('region', { name: 'Summary' });
        expect(await summary.locator('dt').allTextContents()).toEqual(['Package', 'Total SMS', 'Texts saved this month', 'Farms', 'Vats']);
        expect(await summary.locator('dd').allTextContents()).toEqual(['Vat-Man Pro', '120', '0', '2', '6']);
        const farms = summary.getByRole('table', { name: 'Farms of the organization' });
        expect(await farms.getByRole('row', { name: /Totara Downs/ }).getByRole('cell').allTextContents()).toEqual(['31245', 'Totara Downs', 'Vat-Man Pro', '2', '0 of 120']);
        expect(await farms.getByRole('row', { name: /Rimu Valley/ }).getByRole('cell').allTextContents()).toEqual(['FON50412', 'Rimu Valley', 'Vat-Man Auto', '4', '0 of 120']);
        expect(await users(page).getByRole('row').count()).toBe(2);
      });

      await withShot(page, 'organization-add-user', async () => {
        await page.getByRole('button', { name: 'Add a user' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add a user' });
        await expect.poll(() => dialog.textContent()).toContain('The user must first register in the system');
        // An address nobody registered with: refused in the dialog's words, nothing added.
        await dialog.getByLabel('Email').fill('nobody@vatman.local');
        await dialog.getByRole('button', { name: 'Add' }).click();
        await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(ORGANIZATION_MESSAGES.notRegistered);
        await dialog.getByLabel('Email').fill('westfarmer@vatman.local');
        await dialog.getByRole('button', { name: 'Add' }).click();
        await dialog.waitFor({ state: 'detached' });
        const liam = users(page).getByRole('row', { name: /Liam/ });
        await liam.waitFor();
        expect(await liam.getByRole('cell').allTextContents()).toEqual(['Liam', 'Brennan', 'westfarmer@vatman.local', 'User', 'Delete']);
        await shot(page, 'organization-group');
      });

      await withShot(page, 'organization-unlink', async () => {
        await page.getByRole('button', { name: 'Delete Liam Brennan' }).click();
        await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
        expect(await users(page).getByRole('row', { name: /Liam/ }).count()).toBe(1);
        await page.getByRole('button', { name: 'Delete Liam Brennan' }).click();
        await confirmDialog(page).getByRole('button', { name: 'OK' }).click();
        await users(page).getByRole('row', { name: /Liam/ }).waitFor({ state: 'detached' });
      });

      await withShot(page, 'organization-sub', async () => {
        await page.getByRole('button', { name: 'Add a sub-organization' }).click();
        const drawer = page.getByRole('dialog', { name: 'Add organization' });
        expect(await drawer.getByLabel('Tag').inputValue()).toBe('Regional');
        await drawer.getByLabel('Name').fill('Waikato');
        await drawer.getByLabel('Contact').fill('Hemi Tane');
        await drawer.getByRole('button', { name: 'Save' }).click();
        await drawer.waitFor({ state: 'detached' });
        const row = subs(page).getByRole('row', { name: /Waikato/ });
        await row.waitFor();
        expect(await row.getByRole('cell').nth(2).textContent()).toBe('Regional');

        // Its own page: the breadcrumb carries the group; a Non-independent accounting organization has no Summary.
        await row.getByRole('link', { name: 'Waikato' }).click();
        await page.waitForURL(new RegExp(`/dts/group/org-[^/]+/o/${ORG}$`));
        await expect.poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem').allTextContents()).toEqual(['All Organization', 'Ngata Farming Group', 'Waikato']);
        expect(await page.getByRole('region', { name: 'Summary' }).count()).toBe(0);
        await page.getByRole('button', { name: 'Edit', exact: true }).click();
        const edit = page.getByRole('dialog', { name: 'Edit organization' });
        expect(await edit.getByLabel('Tag').isDisabled()).toBe(true);
        expect(await edit.getByLabel('Contact').inputValue()).toBe('Hemi Tane');
        await shot(page, 'organization-drawer');
        await edit.getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Ngata Farming Group' }).click();
        await page.waitForURL(`${env.web}/dts/group/${ORG}`);
        await page.getByRole('button', { name: 'Delete Waikato' }).click();
        await confirmDialog(page).getByRole('button', { name: 'OK' }).click();
        await subs(page).getByRole('row', { name: /Waikato/ }).waitFor({ state: 'detached' });
        expect(await subs(page).getByRole('link').count()).toBe(0);
      });

      await withShot(page, 'organization-missing', async () => {
        await page.goto(`${env.web}/dts/group/org-nobody-has`);
        await page.waitForURL(`${env.web}/dts/dashboard`);
      });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('fits a 375 px phone: the page does not scroll sideways (wide tables scroll inside their card)', async () => {
    const context = await farmContext(env.browser, env.web, 'farm-pro', { width: 375, height: 800, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await page.goto(`${env.web}/dts/group/${ORG}`);
      await signIn(page, 'farmer@vatman.local');
      await page.waitForURL(`${env.web}/dts/group/${ORG}`);
      await withShot(page, 'organization-phone', async () => {
        await page.getByRole('region', { name: 'Summary' }).waitFor();
        expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
        await page.getByRole('button', { name: 'Add a user' }).click();
        expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
      });
      await shot(page, 'organization-phone');
    } finally {
      await context.close();
    }
  }, 60_000);
});
