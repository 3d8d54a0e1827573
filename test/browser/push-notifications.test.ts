import mqtt from 'mqtt';
import type { BrowserContext, Worker } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../shared/alerts/push';
import type { Notification as Alert } from '../../shared/alerts/types';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { alertNotifierFromEnv } from '../../lambdas/alerts/deps';
import { createLogger } from '../../lambdas/lib/logger';
import { browserTestFile, signInAt, withShot } from '../support/browser';
import { chillerOffTrace } from '../support/telemetry';
import { until as waitUntil } from '../support/until';
import { testPushBrowser } from '../support/web-push-client';

/**
 * Web Push in Chromium against the local stack: with notifications allowed, the farmer turns push
 * on from Notification Settings, a chiller left off on Totara Downs vat 1 raises the critical 102,
 * its push reaches the push-service stand-in and then the app's service worker, which shows it;
 * a click opens the vat on the dashboard (switching from the farm selected before) and the alert
 * is read, so its held text never goes.
 *
 * Two steps cannot be the browser's own here, and are stood in for:
 * - Subscribing: Chromium's PushManager.subscribe() registers with Google's push service (FCM),
 *   which this machine cannot reach and which Chromium refuses in a Playwright context anyway
 *   ("Registration failed - permission denied": the Push API is off in incognito). An init
 *   script makes subscribe() answer a subscription at the push-service stand-in with keys this
 *   test holds; the permission prompt, the card and the server's side are the real ones.
 * - Delivery and the click: the stand-in cannot reach into Chromium, so the push it received is
 *   opened with the test's keys and handed to the service worker by the DevTools protocol
 *   (ServiceWorker.deliverPushMessage), as DevTools' own Push button does. There is no protocol
 *   command to click a notification, so the worker's notificationclick handler is given a
 *   NotificationEvent for the notification it showed (with the `waitUntil` promises collected):
 *   the handler's code runs as it would on a click, but without the click's user activation.
 */
const t = browserTestFile('push-notifications');
const FARM = 'farm-pro';
const PHONE = '+64211234501';
const START = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60 * 60_000;
const minute = (m: number) => new Date(START + m * 60_000).toISOString();
const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitUntil(probe, { timeoutMs, everyMs: 250 });

/** Stands in for the browser's registration with its push service (see above); kept per tab so a reload still has it. */
const SUBSCRIBE_AT_STAND_IN = `(({ endpoint, keys }) => {
  const json = { endpoint, expirationTime: null, keys };
  const subscription = {
    endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    toJSON: () => json,
    getKey: () => null,
    unsubscribe: async () => (sessionStorage.removeItem('test-push'), true),
  };
  PushManager.prototype.subscribe = async function () {
    sessionStorage.setItem('test-push', '1');
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem('test-push') ? subscription : null;
  };
})`;

/** In the service worker: the notifications it shows now. */
const SHOWN = `self.registration.getNotifications().then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data, actions: n.actions.map((a) => a.title) })))`;

/** In the service worker: its notificationclick handler given the notification tagged `tag`; answers how each waitUntil promise settled. */
const CLICK = (tag: string) => `(async () => {
  const [notification] = await self.registration.getNotifications({ tag: ${JSON.stringify(tag)} });
  if (!notification) throw new Error('no notification tagged ${tag}');
  const event = new NotificationEvent('notificationclick', { notification, action: '' });
  const waits = [];
  Object.defineProperty(event, 'waitUntil', { value: (p) => void waits.push(p) });
  self.dispatchEvent(event);
  return (await Promise.allSettled(waits)).map((s) => (s.status === 'fulfilled' ? 'ok' : String(s.reason)));
})()`;

const selectedFarm = async (context: BrowserContext) => {
  const cookie = (await context.cookies()).find((c) => c.name === 'vatman_farm');
  return cookie ? (JSON.parse(decodeURIComponent(cookie.value)) as { _id: string })._id : undefined;
};

const appWorker = async (context: BrowserContext): Promise<Worker> => context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));

describe.runIf(t.run)('push notifications in Chromium', () => {
  it('subscribe from Notification Settings, receive a raised alert’s push, click it: the vat opens and the alert is read', async () => {
    const { stack, browser, web } = t;
    const browserKeys = testPushBrowser();
    const endpoint = stack.pushService.newEndpoint();
    const token = await stack.signIn('farmer@vatman.local');
    const list = async () => (await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: FARM }, token)).body as Alert[];

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['notifications'] });
    // Kowhai Flats selected: the push's link must bring the farmer to Totara Downs.
    await context.addCookies([{ name: 'vatman_farm', value: encodeURIComponent(JSON.stringify({ _id: 'farm-lite' })), url: web }]);
    await context.addInitScript(`${SUBSCRIBE_AT_STAND_IN}(${JSON.stringify({ endpoint, keys: browserKeys.keys })})`);
    const page = await context.newPage();
    await withShot(page, 'push-subscribe', async () => {
      await signInAt(page, web, 'farmer@vatman.local', '/dts/user/setting');
      // The permission is asked only from the card's button, never on load.
      await page.getByRole('button', { name: 'Turn on push notifications' }).click();
      await page.getByText('Push notifications are on for this browser.').waitFor();
    });
    expect(await page.evaluate('Notification.permission')).toBe('granted');
    const devices = (await stack.post('/api/setting/profile', { type: 'PUSH_DEVICES' }, token)).body as { devices: { service: string }[] };
    expect(devices.devices).toHaveLength(1);

    // The chiller is left off on vat 1: 102 (over 6 °C) is raised, a critical alert, pushed first.
    const client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'push-browser' });
    try {
      for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic('vm-31245-1'), JSON.stringify(message), { qos: 1 });
    } finally {
      await client.endAsync();
    }
    const a102 = await until(async () => (await list()).find((n) => n.type === 102 && n.device.vat_number === 1));
    expect(a102.status).toBe(1);
    const received = await until(async () => {
      for (const p of stack.pushService.received().filter((r) => r.endpoint === endpoint)) {
        const payload = JSON.parse(browserKeys.decrypt(p.body)) as PushPayload;
        if (payload.tag === a102._id) return { push: p, payload };
      }
      return undefined;
    });
    expect(received.push).toMatchObject({ urgency: 'high', contentEncoding: 'aes128gcm' });

    // Handed to the app's service worker as the push service would.
    const worker = await appWorker(context);
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => void registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const registration = await until(async () => registrations.find((r) => !r.isDeleted && r.scopeURL === `${web}/`));
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: web, registrationId: registration.registrationId, data: JSON.stringify(received.payload) });
    const shown = await until(async () => {
      const ns = (await worker.evaluate(SHOWN)) as { title: string; body: string; tag: string; data: { url: string }; actions: string[] }[];
      return ns.find((n) => n.tag === a102._id);
    });
    expect(shown).toMatchObject({ title: 'Totara Downs Vat 1', tag: a102._id, actions: ['Acknowledge'], data: { url: `/dts/dashboard?farm=${FARM}&vat=1` } });
    expect(shown.body).toMatch(/^Milk over 6C/);

    // The click: the app's window goes to the vat, on Totara Downs (another farm was selected), and the alert is read.
    await withShot(page, 'push-click', async () => {
      const settled = (await worker.evaluate(CLICK(a102._id))) as string[];
      await page.waitForURL((u) => u.pathname === '/dts/dashboard' && u.searchParams.get('farm') === FARM && u.searchParams.get('vat') === '1');
      await page.getByRole('region', { name: 'Vat 1' }).and(page.locator('[aria-current="true"]')).waitFor({ timeout: 30_000 });
      // Only focusing the window needs a real click's activation; the navigation did not.
      expect(settled.filter((s) => s !== 'ok').every((s) => /focus/i.test(s))).toBe(true);
    });
    expect(await selectedFarm(context)).toBe(FARM);
    await until(async () => ((await list()).find((n) => n._id === a102._id)?.status === 2 ? true : undefined));
    expect((await worker.evaluate(SHOWN)) as unknown[]).toEqual([]);

    // Past the push minutes the read alert's text is skipped, never sent.
    await alertNotifierFromEnv(createLogger({}, 'error'), process.env, undefined, () => new Date(Date.now() + 6 * 60_000)).retryPending();
    const texts = ((await (await fetch(stack.facts.sns)).json()) as OutboxMessage[]).filter((m) => m.channel === 'sms' && m.to === PHONE && /Vat 1: Milk over 6C/.test(m.message));
    expect(texts).toEqual([]);
    await context.close();
  }, 240_000);
});
