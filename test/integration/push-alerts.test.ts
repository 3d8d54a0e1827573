import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../../shared/alerts/push';
import type { Notification } from '../../shared/alerts/types';
import type { PushDevicesAnswer } from '../../shared/api/actions/push';
import type { OrganizationList } from '../../shared/api/actions/farmer-organization';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { alertNotifierFromEnv } from '../../lambdas/alerts/deps';
import { createLogger } from '../../lambdas/lib/logger';
import { startTestStack } from '../support/local-stack';
import { until as waitUntil } from '../support/until';
import { chillerOffTrace } from '../support/telemetry';
import { testPushBrowser } from '../support/web-push-client';

/**
 * Web Push through the local stack: the farmer subscribes two browsers (one of which its push
 * service has since dropped), the chiller-off trace raises the critical 102 and 101 on Totara Downs
 * (farm-pro). Each push reaches the push-service stand-in encrypted to the browser's keys, with a
 * VAPID Authorization header it verifies, TTL and Urgency; the dropped browser's 410 removes its
 * subscription. The texts wait behind the pushes: the 102's push is acknowledged (its token, no
 * session) and its text never goes; the 101's is not, and under a clock 6 minutes on its text goes.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let client: MqttClient;
let farmer: string;
let west: string;
const FARMER_PHONE = '+64211234501';
const PROFILE = '/api/setting/profile';

beforeAll(async () => {
  stack = await startTestStack();
  client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'push-alerts' });
  farmer = await stack.signIn('farmer@vatman.local');
  west = await stack.signIn('westfarmer@vatman.local');
});
afterAll(async () => {
  await client?.endAsync();
  await stack?.stop();
});

const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitUntil(probe, { timeoutMs });
const START = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60 * 60_000;
const minute = (m: number) => new Date(START + m * 60_000).toISOString();
const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];
const textsTo = async (phone: string, words: RegExp) => (await outbox()).filter((m) => m.channel === 'sms' && m.to === phone && words.test(m.message));
const list = async () => (await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-pro' }, farmer)).body as Notification[];
const devices = async (token: string) => ((await stack.post(PROFILE, { type: 'PUSH_DEVICES' }, token)).body as PushDevicesAnswer).devices;
const subscribe = (token: string, subscription: unknown, extra: Record<string, string> = {}) => stack.post(PROFILE, { type: 'PUSH_SUBSCRIBE', subscription: JSON.stringify(subscription), ...extra }, token);
const sweepAt = async (minutes: number) => alertNotifierFromEnv(createLogger({}, 'error'), process.env, undefined, () => new Date(Date.now() + minutes * 60_000)).retryPending();

const phone = testPushBrowser();
const dropped = testPushBrowser();
let phoneEndpoint = '';
let droppedEndpoint = '';

describe('push subscriptions', () => {
  it('stores a browser per user and device, refuses endpoints that are not https (or this machine, locally), and keeps each user to their own', async () => {
    phoneEndpoint = stack.pushService.newEndpoint();
    droppedEndpoint = stack.pushService.newEndpoint();
    const first = await subscribe(farmer, { endpoint: phoneEndpoint, expirationTime: null, keys: phone.keys });
    expect(first.status).toBe(200);
    expect((first.body as PushDevicesAnswer).devices).toHaveLength(1);
    // The same browser again replaces itself.
    expect(((await subscribe(farmer, { endpoint: phoneEndpoint, keys: phone.keys })).body as PushDevicesAnswer).devices).toHaveLength(1);
    expect((await subscribe(farmer, { endpoint: droppedEndpoint, keys: dropped.keys })).status).toBe(200);

    // Plain http elsewhere, an address of the functions' own network, another port, and a
    // subscription without keys: 422, nothing stored.
    for (const endpoint of ['http://push.example.com/push/abc', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/push', 'https://push.example.com:8443/push/abc']) {
      const refused = await subscribe(farmer, { endpoint, keys: phone.keys });
      expect(refused.status, endpoint).toBe(422);
      expect((refused.body as { message: string }).message).toBe('The push endpoint must be an https address of a push service.');
    }
    expect((await subscribe(farmer, { endpoint: stack.pushService.newEndpoint() })).status).toBe(422);
    expect(await devices(farmer)).toHaveLength(2);

    // Another farmer cannot subscribe for the farmer (there is no user to name: a user field is
    // ignored and the browser is theirs), see the farmer's browsers, or remove one of them.
    const farmerId = ((await stack.post(PROFILE, { type: 'USER_PROFILE_DATAILS' }, farmer)).body as { _id: string })._id;
    const westEndpoint = stack.pushService.newEndpoint();
    expect((await subscribe(west, { endpoint: westEndpoint, keys: testPushBrowser().keys }, { user: farmerId, user_id: farmerId, userId: farmerId })).status).toBe(200);
    expect(await devices(west)).toHaveLength(1);
    expect(await devices(farmer)).toHaveLength(2);
    expect((await stack.post(PROFILE, { type: 'PUSH_UNSUBSCRIBE', endpoint: phoneEndpoint }, west)).status).toBe(200);
    expect(await devices(farmer)).toHaveLength(2);
    expect((await stack.post(PROFILE, { type: 'PUSH_UNSUBSCRIBE', endpoint: westEndpoint }, west)).status).toBe(200);
    expect(await devices(west)).toEqual([]);
    // Without a session, nothing.
    expect((await stack.post(PROFILE, { type: 'PUSH_DEVICES' })).status).toBe(401);
  });
});

describe('push first, text as the fallback', () => {
  it('pushes each critical alert encrypted with VAPID, removes a gone browser, and texts only the alert whose push was not acknowledged', async () => {
    // The push service dropped the second browser since it subscribed.
    stack.pushService.expire(droppedEndpoint);
    for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic('vm-31245-1'), JSON.stringify(message), { qos: 1 });
    const alerts = await until(async () => {
      const l = (await list()).filter((n) => n.device.vat_number === 1);
      return l.some((n) => n.type === 101) && l.some((n) => n.type === 102) ? l : undefined;
    });
    const a101 = alerts.find((n) => n.type === 101)!;
    const a102 = alerts.find((n) => n.type === 102)!;

    const pushes = await until(async () => {
      const got = stack.pushService.received().filter((p) => p.endpoint === phoneEndpoint);
      return got.length >= 2 ? got : undefined;
    });
    const payloads = pushes.map((p) => JSON.parse(phone.decrypt(p.body)) as PushPayload);
    for (const p of pushes) {
      expect(p.contentEncoding).toBe('aes128gcm');
      expect(p.urgency).toBe('high');
      expect(p.ttl).toBeGreaterThan(0);
      // The stand-in checked the VAPID JWT's signature with this key and its audience.
      expect(p.vapidKey).toBe(process.env.VAPID_PUBLIC_KEY);
      expect(p.vapidClaims).toMatchObject({ aud: stack.pushService.origin, sub: 'mailto:alerts@vatman.local' });
    }
    const push101 = payloads.find((p) => p.tag === a101._id)!;
    const push102 = payloads.find((p) => p.tag === a102._id)!;
    expect(push102).toMatchObject({ title: 'Totara Downs Vat 1', url: '/dts/dashboard?farm=farm-pro&vat=1', ack_url: `${stack.facts.web}/api/user` });
    expect(push102.body).toMatch(/^Milk over 6C/);
    expect(push101.body).toMatch(/^Milk over 10C/);
    expect((await outbox()).filter((m) => m.channel === 'push' && m.to === phoneEndpoint).length).toBeGreaterThanOrEqual(2);

    // The dropped browser's push was answered 410: its subscription is gone.
    await until(async () => ((await devices(farmer)).length === 1 ? true : undefined));
    expect(stack.pushService.received().some((p) => p.endpoint === droppedEndpoint)).toBe(false);

    // No text yet: each waits behind its push.
    expect(await textsTo(FARMER_PHONE, /Totara Downs Vat 1: Milk over/)).toEqual([]);

    // The service worker acknowledges the 102 with the token it carried (no session); a forged one is refused.
    const [head, body] = push102.ack.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ use: 'push-ack', farm_id: 'farm-pro', alert_id: a101._id, user_id: 'x', exp: 9e9 })).toString('base64url')}.${push102.ack.split('.')[2]}`;
    expect(body).toBeTruthy();
    expect((await stack.post('/api/user', { type: 'PUSH_ACKNOWLEDGE', token: forged })).status).toBe(422);
    const ack = await stack.post('/api/user', { type: 'PUSH_ACKNOWLEDGE', token: push102.ack });
    expect(ack).toEqual({ status: 200, body: 'success' });
    const after = await list();
    expect(after.find((n) => n._id === a102._id)?.status).toBe(2);
    expect(after.find((n) => n._id === a101._id)?.status).toBe(1);

    // Four minutes on: nothing yet. Six: the unacknowledged 101's text goes, the 102's never.
    await sweepAt(4);
    expect(await textsTo(FARMER_PHONE, /Totara Downs Vat 1: Milk over/)).toEqual([]);
    await sweepAt(6);
    expect((await textsTo(FARMER_PHONE, /^Vat-Man Totara Downs Vat 1: Milk over 10C/)).length).toBe(1);
    expect(await textsTo(FARMER_PHONE, /^Vat-Man Totara Downs Vat 1: Milk over 6C/)).toEqual([]);
    await sweepAt(7);
    expect((await textsTo(FARMER_PHONE, /^Vat-Man Totara Downs Vat 1: Milk over 10C/)).length).toBe(1);

    // The Organization Summary counts the text saved this month.
    const org = (await stack.post('/api/farmer/organization', { type: 'ORGANIZATION_LIST', organization_id: 'org-ngata' }, farmer)).body as OrganizationList;
    expect(org.summary?.farms.find((f) => f._id === 'farm-pro')?.sms_saved).toBe(1);
    expect(org.summary?.sms_saved).toBe(1);
  });
});

describe('a failed push sends the held text at once', () => {
  const vatTexts = (farmName: string) => textsTo(FARMER_PHONE, new RegExp(`^Vat-Man ${farmName} Vat \\d: Milk over`));
  const raise = async (thing: string) => {
    for (const message of chillerOffTrace(minute)) await client.publishAsync(telemetryTopic(thing), JSON.stringify(message), { qos: 1 });
  };

  it('the only browser gone (410): its subscription is removed and the texts go in the same run, not after the push minutes', async () => {
    expect((await stack.post(PROFILE, { type: 'PUSH_UNSUBSCRIBE', endpoint: phoneEndpoint }, farmer)).status).toBe(200);
    const goneEndpoint = stack.pushService.newEndpoint();
    expect((await subscribe(farmer, { endpoint: goneEndpoint, keys: testPushBrowser().keys })).status).toBe(200);
    stack.pushService.expire(goneEndpoint);
    await raise('vm-31245-2');
    // No sweep with a later clock: the run that raised the alerts sends the texts.
    const texts = await until(async () => {
      const got = await textsTo(FARMER_PHONE, /^Vat-Man Totara Downs Vat 2: Milk over/);
      return got.length >= 2 ? got : undefined;
    });
    expect(texts.map((m) => m.message).sort()).toEqual([expect.stringMatching(/Milk over 10C/), expect.stringMatching(/Milk over 6C/)]);
    expect(await devices(farmer)).toEqual([]);
  }, 120_000);

  it('a push service that keeps failing (503): the texts go after the push’s third try, before the push minutes (test clock)', async () => {
    const downEndpoint = stack.pushService.newEndpoint();
    const browser = testPushBrowser();
    expect((await subscribe(farmer, { endpoint: downEndpoint, keys: browser.keys })).status).toBe(200);
    stack.pushService.setDown(true);
    try {
      await raise('vm-ocd40721-1');
      await until(async () => {
        const l = ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-lite' }, farmer)).body as Notification[]).filter((n) => n.type === 101 || n.type === 102);
        return l.length >= 2 ? l : undefined;
      });
      // Each push was tried once and failed; the texts still wait.
      expect(await vatTexts('Kowhai Flats')).toEqual([]);
      // Tries again 30 s and 60 s after each failure (the stack's own minute sweep may take one of them).
      let sentBy: number | undefined;
      for (const m of [1, 2.5, 4]) {
        await sweepAt(m);
        if ((await vatTexts('Kowhai Flats')).length >= 2) {
          sentBy = m;
          break;
        }
      }
      expect(sentBy).toBeDefined();
      expect(sentBy).toBeLessThan(5);
      expect(await devices(farmer)).toHaveLength(1);
    } finally {
      stack.pushService.setDown(false);
    }
    // Once the push service is back, the pushes still arrive (their own retries); no text goes twice.
    await sweepAt(10);
    await until(async () => (stack.pushService.received().filter((p) => p.endpoint === downEndpoint).length >= 2 ? true : undefined));
    expect(await vatTexts('Kowhai Flats')).toHaveLength(2);
  }, 180_000);
});
