import mqtt, { type MqttClient } from 'mqtt';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_DEVICES, DEMO_FARMS } from '../../local/seed/demo-data';
import type { Device } from '../../shared/entities/device';
import { telemetryTopic, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { displayVolume, volumeFromLevel } from '../../shared/telemetry/reading';
import { farmContext, readChart, signIn, type browserTestFile } from './browser';

type BrowserTestFile = ReturnType<typeof browserTestFile>;

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;
/** One reading every 10 minutes for 6 hours, the newest a few minutes ago. */
export const STEP = 10 * MIN;
export const POINTS = 36;
export const traceEnd = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;

export const farmOf = (id: string) => {
  const farm = DEMO_FARMS.find((f) => f._id === id);
  if (!farm) throw new Error(`no demo farm ${id}`);
  return farm;
};
export const devicesOf = (farmId: string): Device[] => DEMO_DEVICES.filter((d) => d.farm_id === farmId).sort((a, b) => a.vat_number - b.vat_number);
export const PRO = 'farm-pro';
export const LITE = 'farm-lite';
export const TIME_ZONE = 'Pacific/Auckland';

/**
 * The trace of every vat, one reading per STEP (k = 0 oldest): the tanker empties the vat (k 0 to
 * 5: a collection), a hot wash runs on the CIP line (k 6 to 8), a milking fills the vat (som at
 * k 10, eom at k 20), then the milk is stored. Levels differ per vat and stay under every demo
 * vat's height (1,500 mm the lowest).
 */
export const MILKING_START = 10;
export const CIP_START = 6;
const COLLECTION = [1200, 900, 600, 300, 60, 0];
export const levelAt = (d: Device, k: number) =>
  k < COLLECTION.length ? (COLLECTION[k] ?? 0) : k < MILKING_START ? 0 : k <= 20 ? (k - MILKING_START) * 100 + 50 : 1050 + d.vat_number * 40 + (k - 20) * 5;
const stateAt = (k: number) => {
  if (k === MILKING_START) return 'som';
  if (k > MILKING_START && k < 20) return 'milking';
  if (k === 20) return 'eom';
  // Emptied by the tanker (60 mm is the wedge: 0 L) until the milking.
  return k >= 4 && k < MILKING_START ? 'empty' : 'storage';
};

export const traceFor = (d: Device): TelemetryMessageInput[] => {
  const pro = d.farm_id === PRO;
  const out: TelemetryMessageInput[] = [];
  for (let k = 0; k < POINTS; k += 1) {
    const t = traceEnd - (POINTS - 1 - k) * STEP;
    out.push({
      published_at: new Date(t).toISOString(),
      milk_level: levelAt(d, k),
      temp1: 4 + (k % 6) * 0.3,
      temp5: k >= CIP_START && k < CIP_START + 3 ? 72 : 16,
      // An agitator stop of 50 minutes in the middle of the trace.
      agitator_status: k >= 15 && k < 20 ? 0 : 1,
      state_machine: stateAt(k),
      battery: { status: '0x0B' },
      ...(pro ? { cooler: { milk_in: 30 + (k % 5), water_in: 12.5 } } : {}),
    });
    // A Pro vat also reports a temperature now and then without a level: data.csv leaves those out.
    if (pro && k % 3 === 0 && k < POINTS - 1) out.push({ published_at: new Date(t + 5 * MIN).toISOString(), temp1: 4.1 });
  }
  // The Lite vat has readings 3 days back, on page 2 (2 to 4 days ago).
  if (d.farm_id === LITE) {
    for (let k = 0; k < 4; k += 1) out.push({ published_at: new Date(traceEnd - 3 * DAY + k * STEP).toISOString(), milk_level: 900 + k * 10, temp1: 3.8 });
  }
  return out;
};

export interface Visit {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The form fields of every API call the page made, in order. */
  readonly calls: URLSearchParams[];
}

export const FARMER: Record<string, string> = { 'farm-lite': 'farmer@vatman.local', 'farm-pro': 'farmer@vatman.local', 'farm-auto': 'farmer@vatman.local', 'farm-wes': 'westfarmer@vatman.local' };

export const ofType = (calls: readonly URLSearchParams[], type: string) => calls.filter((c) => c.get('type') === type);

export const card = (page: Page, n: number) => page.getByRole('region', { name: `Vat ${n}`, exact: true });
export const fact = async (region: Locator, label: string) => ((await region.locator('.vat-card__fact', { has: region.page().locator('dt', { hasText: label }) }).locator('dd').textContent()) ?? '').trim();

/** How the card says when the trace's k-th reading was ('4 hours ago'): whole hours, the trace being 1 to 6 hours old. */
export const hoursAgo = (k: number) => {
  const hours = Math.floor((Date.now() - (traceEnd - (POINTS - 1 - k) * STEP)) / 3_600_000);
  return `${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
};

/** The card's volume text for a level: volume to 10 L and whole percent (§9, §2.5). */
export const volumeText = (d: Device, level: number) => {
  const litres = volumeFromLevel(level, d);
  return `${displayVolume(litres).toLocaleString('en')} L (${Math.round((litres / d.vat_size) * 100)}%)`;
};

/** The x range a chart is drawing, read from its chart.js instance. */
const READ_X_RANGE = '(chart) => (chart ? { min: chart.scales.x.min, max: chart.scales.x.max } : null)';
type XRange = { readonly min: number; readonly max: number } | null;
export const xRanges = (page: Page, names: readonly string[]) => Promise.all(names.map((name) => readChart<XRange>(page, name, READ_X_RANGE)));


/** Elements of the dashboard screen whose box reaches past the viewport's left or right edge. */
export const OUTSIDE_VIEWPORT = `[...document.querySelectorAll('.milk-dashboard *')]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5); })
  .map((e) => e.tagName.toLowerCase() + '.' + String(e.className) + ' ' + (e.textContent || '').slice(0, 30))`;

/**
 * The milk dashboard's browser stack with its data: beforeAll publishes the scripted trace of every
 * demo vat over MQTT (the stack has no simulator) and waits until the API answers with each vat's
 * newest reading; the helpers open the dashboard as the farm's farmer and publish more.
 */
export const milkDashboardFile = (env: BrowserTestFile) => {
  let client: MqttClient;
  /** What every vat was sent: the trace, and for Pro the cooler data and the temperature-only messages (no volume). */
  const sent = new Map<string, TelemetryMessageInput[]>();

  const publish = (d: Device, message: TelemetryMessageInput) => client.publishAsync(telemetryTopic(d.name), JSON.stringify(message), { qos: 1 });

  interface LastReading {
    readonly device: { readonly _id: string };
    readonly last: { readonly published_at: string } | null;
  }

  /** Polls FARMER_DASHBOARD_LAST until every vat's newest reading is the one expected. */
  const untilLast = async (farmId: string, token: string, newest: (d: Device) => string, timeoutMs = 30_000) => {
    const started = Date.now();
    for (;;) {
      const res = await env.stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: farmId }, token);
      const vats = res.body as LastReading[];
      if (res.status === 200 && devicesOf(farmId).every((d) => vats.find((v) => v.device._id === d._id)?.last?.published_at === newest(d))) return;
      if (Date.now() - started > timeoutMs) throw new Error(`${farmId}: readings not ingested: ${JSON.stringify(res.body).slice(0, 400)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const newestSent = (d: Device) => (sent.get(d._id) ?? []).map((m) => new Date(m.published_at).toISOString()).sort().at(-1) ?? '';

  beforeAll(async () => {
    if (!env.run) return;
    client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'milk-dashboard-browser-test' });
    for (const d of DEMO_DEVICES) sent.set(d._id, traceFor(d));
    await Promise.all(DEMO_DEVICES.map(async (d) => {
      for (const m of sent.get(d._id) ?? []) await publish(d, m);
    }));
    const farmer = await env.stack.signIn('farmer@vatman.local');
    const westFarmer = await env.stack.signIn('westfarmer@vatman.local');
    for (const f of DEMO_FARMS) await untilLast(f._id, f._id === 'farm-wes' ? westFarmer : farmer, newestSent, 60_000);
  }, 180_000);
  afterAll(async () => client?.endAsync());

  /**
   * Signs the farm's farmer in on /dts/dashboard with the farm selected (the farm cookie of farmer
   * §3), optionally with playwright's fake clock installed first (time runs on until moved).
   */
  const openDashboard = async (farmId: string, { width = 1280, clock = false, phone = false } = {}): Promise<Visit> => {
    // The farms are in New Zealand: the page shows and writes times in the farm's zone. A phone has a touch screen.
    const context = await farmContext(env.browser, env.web, farmId, {
      width,
      height: phone ? 800 : 900,
      acceptDownloads: true,
      timezoneId: TIME_ZONE,
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    });
    // The refresh test is of the fallback: with the live-updates socket down (closed at
    // once), the cards and the charts' live range refresh every 120 s; test/browser/live.test.ts has the live ones.
    if (clock) await context.routeWebSocket((url) => url.href.startsWith(env.stack.facts.live), (ws) => ws.close());
    const page = await context.newPage();
    if (clock) await page.clock.install();
    const calls: URLSearchParams[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${env.stack.facts.web}/api/`)) calls.push(new URLSearchParams(r.postData() ?? ''));
    });
    await page.goto(`${env.web}/dts/dashboard`);
    await signIn(page, FARMER[farmId] ?? '');
    await page.waitForURL(`${env.web}/dts/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Vatman' }).waitFor();
    return { context, page, calls };
  };

  return { sent, publish, untilLast, openDashboard };
};
