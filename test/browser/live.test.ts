import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICES, DEMO_FARMS, DEMO_KNODE, DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from '../../local/simulator/simulator';
import type { Device } from '../../shared/entities/device';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { browserTestFile, farmContext, signIn, withShot } from '../support/browser';

/**
 * In Chromium: live updates, stale data and the offline app.
 *
 * - A reading published over MQTT changes the vat card within 5 s, without a reload (the
 *   WebSocket stand-in, the ingest's push, the dashboard's refetch).
 * - The simulator's `offline` fault stops a vat; after 15 minutes of simulated time its card is
 *   amber with 'No data since HH:MM' on the farm's clock, while the farm's other vats are not. The
 *   simulator and the page share one test clock that starts 30 minutes in the past (the platform
 *   refuses readings from the future), the page's through Playwright's clock.
 * - Offline (context.setOffline), the dashboard opens again from the service worker's cache and
 *   says how old its numbers are.
 */
const env = browserTestFile('live');
const { run } = env;
const MIN = 60_000;

const vatOf = (farm: string, n: number) => DEMO_DEVICES.find((d) => d.farm_id === farm && d.vat_number === n) as Device;
const card = (page: Page, n: number) => page.getByRole('region', { name: `Vat ${n}`, exact: true });

/** The farm's wall clock 'HH:mm' at `iso`, worked out with Intl alone. */
const farmClock = (iso: string, zone: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const farmDay = (t: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(t));
/** The card's 'No data since …' (§9): the farm's clock time when it was today there, else 'DD MMM YYYY HH:mm'. */
const noDataSince = (iso: string, now: number, zone: string) => {
  const day = farmDay(Date.parse(iso), zone);
  if (day === farmDay(now, zone)) return `No data since ${farmClock(iso, zone)}`;
  const [y, m, d] = day.split('-');
  return `No data since ${d} ${MONTHS[Number(m) - 1]} ${y} ${farmClock(iso, zone)}`;
};

let broker: MqttClient;
let sim: SimulatorHandle | undefined;
beforeAll(async () => {
  if (!run) return;
  broker = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'live-browser-test' });
});
afterAll(async () => {
  await sim?.stop();
  await broker?.endAsync();
});

describe.runIf(run)('live dashboard, stale vats and the offline app', () => {
  it('a reading published over MQTT changes the vat card within 5 s without a reload; offline, the saved dashboard opens with its age', async () => {
    const vat = vatOf('farm-auto', 1);
    const context = await farmContext(env.browser, env.web, 'farm-auto');
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/dashboard`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL(`${env.web}/dts/dashboard`);
    await withShot(page, 'live-card', async () => {
      await card(page, 1).waitFor();
      await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor({ timeout: 10_000 });
      // A mark on the page that a reload would wipe.
      await page.evaluate('window.__noReload = true');
      expect(await card(page, 1).textContent()).not.toContain('2.3 °C');

      // The cards' answer is not asked again: the pushed values are applied to it (decision 077).
      let cardCalls = 0;
      page.on('request', (req) => {
        if (req.url().includes('/api/farmer/activity') && new URLSearchParams(req.postData() ?? '').get('type') === 'FARMER_DASHBOARD_LAST') cardCalls += 1;
      });
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
      const sent = Date.now();
      await broker.publishAsync(telemetryTopic(vat.name), JSON.stringify({ published_at: at, milk_level: 1200, temp1: 2.3, agitator_status: 1, battery: { status: '0x0B' } }), { qos: 1 });
      await card(page, 1).getByText('2.3 °C').waitFor({ timeout: 5000 });
      expect(Date.now() - sent).toBeLessThan(5000);
      expect(cardCalls).toBe(0);
      expect(await page.evaluate('window.__noReload')).toBe(true);
      // A fresh reading: the card is not amber.
      expect(await card(page, 1).getAttribute('data-stale')).toBeNull();
    });

    await withShot(page, 'live-offline', async () => {
      // The service worker the dashboard registered controls the page once it is active; a reload
      // online then goes through it and saves the dashboard's answers.
      await expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 15_000 }).toBe(true);
      await page.reload();
      await card(page, 1).getByText('2.3 °C').waitFor();
      const savedBefore = Date.now();

      await context.setOffline(true);
      await page.reload();
      await card(page, 1).getByText('2.3 °C').waitFor({ timeout: 15_000 });
      // The page says it has no connection (the browser's word where it gives one) and how old its numbers are.
      const banner = page.getByRole('status').filter({ hasText: /^(You are offline\.|No connection to Vat-Man\.) Showing the numbers saved at/ });
      await banner.waitFor();
      const text = (await banner.textContent()) ?? '';
      const saved = /Showing the numbers saved at (\d\d:\d\d)/.exec(text)?.[1];
      expect(saved, text).toBeDefined();
      // The time it names is the farm's clock when the answers were saved (this minute or the last).
      const zone = DEMO_FARMS.find((f) => f._id === 'farm-auto')?.timezone ?? 'Pacific/Auckland';
      expect([farmClock(new Date(savedBefore).toISOString(), zone), farmClock(new Date(savedBefore - MIN).toISOString(), zone)]).toContain(saved);
      await context.setOffline(false);
    });
    await context.close();
  }, 120_000);

  it("the simulator's offline fault turns the vat's card amber after 15 minutes of simulated time, the farm's other vats not", async () => {
    const FARM = 'farm-wes';
    const farm = DEMO_FARMS.find((f) => f._id === FARM);
    if (!farm) throw new Error('no farm-wes');
    const stopped = vatOf(FARM, 1);
    // The one test clock: 30 minutes behind, moved by hand.
    let clock = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
    sim = await startSimulator({ mqttUrl: env.stack.facts.mqtt, farms: simFarmsFrom([farm], DEMO_DEVICES, DEMO_KNODE, DEMO_UNIT_IMEIS), backfillHours: 0.25, now: () => new Date(clock) });
    await sim.caughtUp;

    const token = await env.stack.signIn('westfarmer@vatman.local');
    /** The farm's vats' newest reading times, once every vat has one at or after `since`, or only vat 1 is behind. */
    const newest = async (done: (last: Map<number, string>) => boolean) => {
      const started = Date.now();
      for (;;) {
        const res = await env.stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }, token);
        const last = new Map((res.body as { device: { vat_number: number }; last: { published_at: string } | null }[]).map((v) => [v.device.vat_number, v.last?.published_at ?? '']));
        if (res.status === 200 && done(last)) return last;
        if (Date.now() - started > 60_000) throw new Error(`readings not ingested: ${JSON.stringify([...last])}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const minuteIso = (t: number) => new Date(t).toISOString().slice(0, 16);
    await newest((last) => [1, 2, 3].every((n) => (last.get(n) ?? '').slice(0, 16) >= minuteIso(clock - MIN)));

    const context = await farmContext(env.browser, env.web, FARM);
    await context.clock.install({ time: clock });
    const page = await context.newPage();
    await page.goto(`${env.web}/dts/dashboard`);
    await signIn(page, 'westfarmer@vatman.local');
    await page.waitForURL(`${env.web}/dts/dashboard`);
    await withShot(page, 'live-stale', async () => {
      await card(page, 3).waitFor();
      for (const n of [1, 2, 3]) expect(await card(page, n).getAttribute('data-stale'), `vat ${n} at the start`).toBeNull();

      // Vat 1's device stops; 16 simulated minutes pass for the simulator and the page.
      sim?.inject({ device: stopped.name, kind: 'offline', minutes: 60 });
      clock += 16 * MIN;
      const last = await newest((l) => [2, 3].every((n) => (l.get(n) ?? '').slice(0, 16) >= minuteIso(clock - MIN)));
      const quietSince = last.get(1) ?? '';
      expect(Date.parse(quietSince)).toBeLessThan(clock - 15 * MIN);
      await page.clock.fastForward('16:00');

      const amber = card(page, 1);
      await amber.getByText(noDataSince(quietSince, clock, farm.timezone)).waitFor({ timeout: 10_000 });
      expect(await amber.getAttribute('data-stale')).toBe('true');
      // Amber (milk-dashboard.css): read in the page (this file is compiled without the DOM's types).
      const borderOf = (el: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopColor: string } }).getComputedStyle(el).borderTopColor;
      expect(await amber.evaluate(borderOf)).toBe('rgb(178, 94, 0)');
      // The others' readings of those minutes reach the page (pushed, or the 2-minute refresh).
      for (const n of [2, 3]) await expect.poll(() => card(page, n).getAttribute('data-stale'), { timeout: 10_000, message: `vat ${n} still sending` }).toBeNull();
      // Only one vat is quiet: no farm-offline banner.
      expect(await page.getByText('This farm is offline').count()).toBe(0);
    });
    await context.close();
  }, 180_000);
});
