import mqtt, { type MqttClient } from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVatModel } from '../../local/simulator/vat-model';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import type { Notification } from '../../shared/alerts/types';
import { isMilkingState, telemetryTopic, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { browserAvailable, farmContext, shot, signIn, startBrowserStack, withShot, type BrowserStack } from '../support/browser';
import { until as waitUntil } from '../support/until';

/**
 * Acceptance (cooling at risk) in Chromium against the local stack. A trace recorded
 * from the simulator's vat model for Totara Downs (farm-pro, Pacific/Auckland) vat 1: the
 * afternoon milking goes into the morning's milk with the simulator's chiller_off fault from 20
 * minutes into it until an hour after it ended, when the fault clears and the vat cools again,
 * too slowly now for the 6 °C deadline (2 hours after the end). The trace is shifted to end now,
 * so that deadline is still 20 minutes ahead: the 6 °C rule has not failed yet.
 * Expected: one 'Cooling at risk' text while the chiller is off; the vat card showing the
 * predicted 6 °C time past the deadline; no further alert once the fault has cleared.
 */
let env: BrowserStack | undefined;
let browser: Browser;
let client: MqttClient;

const run = browserAvailable();
const FARM = 'farm-pro';
const TIMEZONE = 'Pacific/Auckland';
const PHONE = '+64211234501';
const MIN = 60_000;
const device = DEMO_DEVICES.find((d) => d.name === 'vm-31245-1');
if (!device) throw new Error('seed: no vm-31245-1');

/** The model's day: its second milking (into the morning's milk), ended at `end`. */
const recorded = (() => {
  const vat = { vat_size: device.vat_size, vat_diameter: device.vat_diameter, vat_max_height: device.vat_max_height, wedgeHeight: device.wedgeHeight, vat_volume_offset: device.vat_volume_offset };
  const model = () => createVatModel({ device: device.name, farmKey: '31245', timezone: TIMEZONE, vat, seed: 1 });
  const from = Date.parse('2026-06-01T00:00:00Z');
  // The milkings' times (the schedule does not depend on faults).
  const milkings: { start: number; end: number }[] = [];
  const healthy = model();
  let open: number | null = null;
  for (let t = healthy.nextTime(from); milkings.length < 2; t += MIN) {
    const m = healthy.step(t);
    if (!m) continue;
    if (isMilkingState(m.state_machine)) open ??= t;
    else if (open !== null) {
      milkings.push({ start: open, end: t });
      open = null;
    }
  }
  const milking = milkings[1] as { start: number; end: number };
  const faulty = model();
  const offFrom = milking.start + 20 * MIN;
  faulty.inject('chiller_off', Math.round((milking.end + 60 * MIN - offFrom) / MIN), offFrom);
  const messages: TelemetryMessageInput[] = [];
  for (let t = faulty.nextTime(from); t <= milking.end + 100 * MIN; t += MIN) {
    const m = faulty.step(t);
    // From an hour before the milking: the vat holds the morning's milk, cold.
    if (m && t >= milking.start - 60 * MIN) messages.push(m);
  }
  return { messages, milking };
})();

/** The recorded trace moved to end a minute ago (device times; the model's own times are in June). */
const NOW = Math.floor(Date.now() / MIN) * MIN - MIN;
const shift = NOW - (recorded.milking.end + 100 * MIN);
const END = recorded.milking.end + shift;
const DEADLINE = END + 120 * MIN;

const outbox = async () => ((await (await fetch(env?.stack.facts.sns ?? '')).json()) as OutboxMessage[]);
const coolingTexts = (messages: readonly OutboxMessage[]) => messages.filter((m) => m.channel === 'sms' && m.to === PHONE && m.message.includes('Cooling at risk'));
const until = <T,>(probe: () => Promise<T | undefined>, timeoutMs = 90_000) => waitUntil(probe, { timeoutMs, everyMs: 250 });

/** 'HH:mm' on the farm's clock, worked out here independently of the app. */
const farmClock = (t: number) => new Intl.DateTimeFormat('en-GB', { timeZone: TIMEZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);

beforeAll(async () => {
  if (!run) return;
  env = await startBrowserStack('cooling');
  browser = env.browser;
  client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'cooling-browser' });
}, 120_000);
afterAll(async () => {
  await client?.endAsync();
  await env?.stop();
});

describe.runIf(run)('cooling at risk in Chromium', () => {
  it('chiller off after a milking: one text before the 6 °C rule fails, the card predicts 6 °C past the deadline, no further alert once the fault clears', async () => {
    if (!env) throw new Error('no stack');
    const stack = env.stack;
    const token = await stack.signIn('farmer@vatman.local');
    const listed = async () =>
      ((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: FARM }, token)).body as Notification[]).filter((n) => n.device.vat_number === 1);

    // While the chiller is off (up to an hour after the milking ended): the alert and its one text.
    const offPart = recorded.messages.filter((m) => Date.parse(m.published_at) <= recorded.milking.end + 60 * MIN);
    const onPart = recorded.messages.slice(offPart.length);
    const publish = async (messages: readonly TelemetryMessageInput[]) => {
      for (const m of messages) await client.publishAsync(telemetryTopic(device.name), JSON.stringify({ ...m, published_at: new Date(Date.parse(m.published_at) + shift).toISOString() }), { qos: 1 });
    };
    await publish(offPart);
    const risk = await until(async () => (await listed()).find((n) => n.type === 105));
    const raisedAt = Date.parse(risk.data.published_at);
    expect(raisedAt).toBeGreaterThan(END);
    expect(raisedAt).toBeLessThan(END + 60 * MIN);
    expect(risk.detail).toBe(`6C not predicted (not cooling), deadline ${farmClock(DEADLINE)}`);
    const first = await until(async () => {
      const texts = coolingTexts(await outbox());
      return texts.length > 0 ? texts : undefined;
    });
    expect(first).toHaveLength(1);
    expect(first[0]?.message).toContain(`Totara Downs Vat 1: Cooling at risk, 6C not predicted (not cooling), deadline ${farmClock(DEADLINE)}`);

    // The fault clears; the vat cools again, too slowly for the deadline.
    await publish(onPart);
    const lastCooling = async () => {
      const body = (await stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }, token)).body as { device: { vat_number: number }; last: { published_at: string } | null; cooling?: { targets: { rule: string; predicted_at: string | null; deadline: string }[] } | null }[];
      const vat1 = body.find((v) => v.device.vat_number === 1);
      return vat1?.last && Date.parse(vat1.last.published_at) >= NOW - MIN ? vat1.cooling : undefined;
    };
    const cooling = await until(lastCooling);
    const r2 = cooling?.targets.find((t) => t.rule === 'R2');
    expect(r2?.deadline).toBe(new Date(DEADLINE).toISOString());
    expect(Date.parse(r2?.predicted_at ?? '')).toBeGreaterThan(DEADLINE);

    const context = await farmContext(browser, env.web, FARM, { width: 1280, timezoneId: TIMEZONE });
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/login`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL((url) => url.pathname !== '/dts/login');
    await page.goto(`${env.web}/dts/dashboard`);
    await withShot(page, 'cooling-card', async () => {
      const clock = page.getByRole('region', { name: 'Vat 1', exact: true }).getByRole('region', { name: 'Cooling' });
      await clock.waitFor();
      const six = clock.getByRole('listitem').filter({ hasText: '6 °C' });
      const text = (await six.textContent()) ?? '';
      expect(text).toContain(`6 °C by ${farmClock(DEADLINE)} — `);
      expect(text).toContain(`Predicted ${farmClock(Date.parse(r2?.predicted_at ?? ''))} — after the deadline`);
      expect(await six.getAttribute('data-risk')).toBe('true');
      await shot(page, 'cooling-card-1280');
    });
    await context.close();

    // Before the 6 °C rule fails (its deadline still ahead, no 102), exactly one 'Cooling at risk' text, and no further alert.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(Date.now()).toBeLessThan(DEADLINE);
    const alerts = await listed();
    expect(alerts.filter((n) => n.type === 105)).toHaveLength(1);
    expect(alerts.filter((n) => n.type === 102)).toEqual([]);
    expect(coolingTexts(await outbox())).toHaveLength(1);
  });
});
