import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import type { Notification } from '../../shared/alerts/types';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { browserAvailable, farmContext, shot, signIn, startBrowserStack, withShot, type BrowserStack } from '../support/browser';
import { until as waitUntil } from '../support/until';
import { chillerOffTrace } from '../support/telemetry';

/**
 * In Chromium against the local stack: a chiller left off on Totara Downs
 * (farm-pro, Pacific/Auckland) vat 1, published over MQTT with device times, gives 102 then 101,
 * once each; the Alerts tab shows them by vat in the farm's local time (the browser runs in UTC),
 * opening marks read, archiving moves to Archive. Two users on the farm: Aroha with every channel
 * on gets SMS and email; Liam, who turns text off for 'Milk too warm' on the Notification
 * Settings page first, gets email only.
 */
let env: BrowserStack | undefined;
let stack: BrowserStack['stack'];
let browser: Browser;
let web: string;
let client: MqttClient;

const run = browserAvailable();
const FARM = 'farm-pro';
const TIMEZONE = 'Pacific/Auckland';
const BOTH = { email: 'farmer@vatman.local', phone: '+64211234501' };
const EMAIL_ONLY = { email: 'westfarmer@vatman.local', phone: '+64211234502' };

beforeAll(async () => {
  if (!run) return;
  env = await startBrowserStack('alerts');
  ({ stack, browser, web } = env);
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'alerts-browser' });
  // A second user on the farm, as an operator would link them (both demo farmers have verified phones).
  const farms = dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
  const liam = await farms.findUserByEmail(EMAIL_ONLY.email);
  if (!liam) throw new Error('seed: no westfarmer');
  await farms.linkUserToFarm(liam._id, FARM);
}, 120_000);
afterAll(async () => {
  await client?.endAsync();
  await env?.stop();
});

/** A signed-in visit with the farm selected, in a browser whose own clock is UTC. */
const visit = async (email: string, path: string, width = 1280): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await farmContext(browser, web, FARM, { width, timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(`${web}/dts/login`);
  await signIn(page, email);
  await page.waitForURL((url) => url.pathname !== '/dts/login');
  await page.goto(`${web}${path}`);
  return { context, page };
};

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitUntil(probe, { timeoutMs, everyMs: 200 });

const START = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60 * 60_000;
const minute = (m: number) => new Date(START + m * 60_000).toISOString();

/** The chiller-left-off trace of test/support/telemetry.ts: 102 due at minute 73, 101 at minute 153. */
const publishChillerOff = async (thing: string) => {
  for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic(thing), JSON.stringify(message), { qos: 1 });
};

const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];
/** What one user was sent about vat 1: channel and alert (over 6C is 102, over 10C is 101). */
const sentTo = (messages: readonly OutboxMessage[], user: { email: string; phone: string }) =>
  messages
    .filter((m) => (m.channel === 'sms' ? m.to === user.phone : m.to === user.email) && (m.subject ?? m.message).includes('Vat 1'))
    .map((m) => `${m.channel}:${/over 10C/.test(m.subject ?? m.message) ? 101 : /over 6C/.test(m.subject ?? m.message) ? 102 : 'other'}`)
    .sort();

/** 'DD MMM YYYY HH:mm' in the farm's zone, worked out here independently of the app. */
const farmLocal = (iso: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: TIMEZONE, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day} ${parts.month} ${parts.year} ${parts.hour}:${parts.minute}`;
};

/** The farm zone's short name at that instant (NZDT or NZST): the page names it, the browser's clock (UTC) being another. */
const farmZoneName = (iso: string) =>
  new Intl.DateTimeFormat('en-NZ', { timeZone: TIMEZONE, timeZoneName: 'short' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')?.value ?? '';

/** The same instant as a browser in UTC would show it, to prove the page does not. */
const utcShown = (iso: string) => `${iso.slice(11, 16)}`;

const listed = async (token: string) =>
  ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: FARM }, token)).body as Notification[]).filter(
    (n) => n.device.vat_number === 1,
  );

describe.runIf(run)('alerts in Chromium', () => {
  it("a user turns text off for 'Milk too warm' on the Notification Settings page", async () => {
    const { context, page } = await visit(EMAIL_ONLY.email, '/dts/user/setting');
    await withShot(page, 'alerts-prefs', async () => {
      const form = page.getByRole('form', { name: 'Notification settings' });
      await form.waitFor();
      const text = form.getByRole('checkbox', { name: 'Text: Milk too warm' });
      expect(await text.isChecked()).toBe(true);
      expect(await form.getByRole('checkbox', { name: 'Email: Milk too warm' }).isChecked()).toBe(true);
      await text.uncheck();
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Success!').waitFor();
      await shot(page, 'alerts-prefs-1280');
    });
    // Stored for this user and this farm, and the page shows it after a reload.
    const token = await stack.signIn(EMAIL_ONLY.email);
    const saved = await stack.post('/api/farmer/setting', { type: 'USER_SETTING_ALERT_GET_USER', farm: FARM }, token);
    expect((saved.body as { alert_setting: Record<string, unknown> }).alert_setting.milk_warm).toEqual({ email: true, text: false });
    await page.reload();
    await page.getByRole('checkbox', { name: 'Email: Milk too warm' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Text: Milk too warm' }).isChecked()).toBe(false);
    await context.close();
  });

  it('a chiller left off raises 102 then 101 once each: SMS and email to one user, email only to the other', async () => {
    await publishChillerOff('vm-31245-1');
    const token = await stack.signIn(BOTH.email);
    const alerts = await until(async () => {
      const l = await listed(token);
      return l.some((n) => n.type === 101) ? l : undefined;
    });
    expect([...alerts].sort((a, b) => a.data.published_at.localeCompare(b.data.published_at)).map((n) => [n.type, n.data.published_at])).toEqual([
      [102, minute(73)],
      [101, minute(153)],
    ]);

    await until(async () => {
      const m = await outbox();
      return sentTo(m, BOTH).length >= 4 && sentTo(m, EMAIL_ONLY).length >= 2 ? true : undefined;
    });
    // Anything still to go out has had time to (a duplicate would show here).
    await new Promise((r) => setTimeout(r, 1_500));
    const messages = await outbox();
    expect(sentTo(messages, BOTH)).toEqual(['email:101', 'email:102', 'sms:101', 'sms:102']);
    expect(sentTo(messages, EMAIL_ONLY)).toEqual(['email:101', 'email:102']);
    // The texts give the farm, the vat, what and when in the farm's local time.
    const sms102 = messages.find((m) => m.channel === 'sms' && m.to === BOTH.phone && m.message.includes('over 6C'));
    expect(sms102?.message).toContain(`Totara Downs Vat 1: Milk over 6C`);
    expect(sms102?.message).toContain(farmLocal(minute(73)).slice(12));
  });

  for (const width of [1280, 375]) {
    it(`the Alerts tab at ${width} px: by vat, local times, opening marks read, archive moves to Archive`, async () => {
      const token = await stack.signIn(BOTH.email);
      const before = await listed(token);
      const alert102 = before.find((n) => n.type === 102);
      const alert101 = before.find((n) => n.type === 101);
      if (!alert102 || !alert101) throw new Error('the alerts of the previous test are missing');
      // Each width starts from both unread, as the farmer first sees them.
      for (const n of [alert102, alert101]) {
        await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_ONE_EDIT', farm: FARM, item: JSON.stringify({ _id: n._id }), status: '1' }, token);
      }
      const reset = await listed(token);
      // Archived stays archived (farmer §2.8): the first width's archive cannot be undone.
      const archivedAlready = reset.find((n) => n._id === alert101._id)?.status === 3;

      const { context, page } = await visit(BOTH.email, '/dts/notification', width);
      await withShot(page, `alerts-tab-${width}`, async () => {
        await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
        const panel = page.getByRole('tabpanel');
        const vat1 = panel.getByRole('region', { name: 'Vat 1' });
        await vat1.waitFor();
        // The farm's clock, named (the browser's zone, UTC, reads another time).
        const when102 = `${farmLocal(alert102.data.published_at)} ${farmZoneName(alert102.data.published_at)}`;
        const when101 = `${farmLocal(alert101.data.published_at)} ${farmZoneName(alert101.data.published_at)}`;
        // The farm's zone, not the browser's (UTC): 13 hours (NZDT) or 12 (NZST) ahead.
        const row102 = vat1.getByRole('button', { name: /^Temperature over 6°C/ });
        await row102.waitFor();
        expect(await row102.textContent()).toContain(when102);
        expect(await row102.textContent()).not.toContain(utcShown(alert102.data.published_at));
        if (!archivedAlready) {
          const row101 = vat1.getByRole('button', { name: /^Temperature over 10°C/ });
          expect(await row101.textContent()).toContain(when101);
          await page.getByRole('tab', { name: /^Alerts\s*\(2 unread\)$/ }).waitFor();
        } else {
          await page.getByRole('tab', { name: /^Alerts\s*\(1 unread\)$/ }).waitFor();
        }
        await page.getByRole('link', { name: /^Notifications\s*\(new\)$/ }).first().waitFor();
        // On a phone the tab bar scrolls sideways: the open tab is scrolled fully into view.
        await expect.poll(async () => {
          const box = await page.locator('.farm-tabs__tab.active').boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= width;
        }).toBe(true);
        await shot(page, `alerts-tab-${width}`);

        // Opening 102 shows its facts in local time and marks it read: the unread total drops.
        await row102.click();
        const facts = (label: string) => vat1.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
        expect(await facts('When').textContent()).toBe(when102);
        expect(await facts('Temperature').textContent()).toBe('6.2 °C');
        expect(await facts('Agitator').textContent()).toBe('Running');
        if (!archivedAlready) await page.getByRole('tab', { name: /^Alerts\s*\(1 unread\)$/ }).waitFor();
        else await page.getByRole('tab', { name: /^Alerts$/ }).waitFor();
        await shot(page, `alerts-open-${width}`);
        expect((await listed(token)).find((n) => n._id === alert102._id)?.status).toBe(2);

        if (!archivedAlready) {
          // Archiving 101 moves it to Archive; nothing is left unread.
          await vat1.getByRole('button', { name: `Archive Temperature over 10°C at ${when101}` }).click();
          await page.getByRole('tab', { name: /^Alerts$/ }).waitFor();
          await expect.poll(async () => vat1.getByRole('button', { name: /^Temperature over 10°C/ }).count()).toBe(0);
          await expect.poll(async () => page.getByRole('link', { name: /^Notifications\s*\(new\)$/ }).count()).toBe(0);
          expect((await listed(token)).find((n) => n._id === alert101._id)?.status).toBe(3);
        }
        await page.getByRole('tab', { name: 'Archive' }).click();
        const archived = page.getByRole('tabpanel').getByRole('region', { name: 'Vat 1' });
        const row = archived.getByRole('button', { name: /^Temperature over 10°C/ });
        await row.waitFor();
        expect(await row.textContent()).toContain(when101);
        expect(await archived.getByRole('button', { name: /^Temperature over 6°C/ }).count()).toBe(0);
        await shot(page, `alerts-archive-${width}`);
      });
      await context.close();
    });
  }
});
