import { readFile } from 'node:fs/promises';
import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { localDayOf, localMidnight } from '../../shared/time/local-day';
import { createVatModel } from '../../local/simulator/vat-model';
import { browserTestFile, openAs as openPage, shot, withShot } from '../support/browser';
import { reading } from '../support/reading-series';
import { until } from '../support/until';

/**
 * The device fleet in Chromium (issue "Device fleet"; operator §2): the list with live values and
 * its 'down' search, a device's gauges and charts on a reading published over MQTT, a click on a
 * point opening its raw message, and the raw drawer's download of yesterday in the farm's local
 * time. The test stack runs no simulator process: the simulator's vat model runs here, for the last
 * 30 hours of one device with its `offline` fault from 26 hours ago on, and what it published is sent
 * over MQTT; every other demo device publishes a fresh reading. 'down' (no data for over a day)
 * must find the one the fault stopped.
 */
const env = browserTestFile('devices');
const ZONE = 'Pacific/Auckland';
const SILENT = 'vm-wes118-3';
const PRO_1 = DEMO_DEVICES.find((d) => d.name === 'vm-31245-1');
/**
 * Yesterday's stored messages go to the farm's other vat: on PRO_1's chart, the last minute of
 * yesterday lay nearer the click than the fresh reading for most of an hour after New Zealand's
 * midnight, and the click opened it.
 */
const PRO_2 = DEMO_DEVICES.find((d) => d.name === 'vm-31245-2');
let mq: MqttClient;
const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 60_000).toISOString();
/** Yesterday in New Zealand and the messages stored inside it (and one just before it). */
const yesterday = localDayOf(Date.now() - 86_400_000, ZONE);
const yStart = localMidnight(yesterday, ZONE);
const insideYesterday = [yStart + 60_000, yStart + 11 * 3_600_000, yStart + 86_400_000 - 60_000].map((t) => new Date(t).toISOString());

beforeAll(async () => {
  if (!env.run) return;
  mq = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'devices-browser-test' });
  // The silent device: the simulator's model from 30 hours ago, offline (its fault) from 26 hours ago on.
  const silent = DEMO_DEVICES.find((d) => d.name === SILENT);
  if (!silent) throw new Error(`no ${SILENT}`);
  const vm = createVatModel({ device: SILENT, farmKey: 'WES118', timezone: ZONE, vat: silent, seed: 3 });
  const from = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 3_600_000;
  vm.inject('offline', 27 * 60, from + 4 * 3_600_000);
  let published = 0;
  for (let t = vm.nextTime(from); t < Date.now(); t += 60_000) {
    const m = vm.step(t);
    if (!m) continue;
    await mq.publishAsync(telemetryTopic(SILENT), JSON.stringify(m), { qos: 1 });
    published += 1;
  }
  expect(published).toBeGreaterThan(200);
  expect(published).toBeLessThanOrEqual(4 * 60 + 1);
  for (const d of DEMO_DEVICES.filter((x) => x.name !== SILENT)) {
    const temp1 = d.name === 'vm-31245-1' ? 3.7 : 4.1;
    await mq.publishAsync(telemetryTopic(d.name), JSON.stringify({ published_at: at, radar_distance: 1400, temp1, temp2: 14.2, shaft_rpm: 420, agitator_status: 1, state_machine: 'storage' }), { qos: 1 });
  }
  const readings = dynamoReadingsRepository(createDocumentClient(), env.stack.facts.dynamodb.readingsTable);
  for (const t of [...insideYesterday, new Date(yStart - 60_000).toISOString()]) await readings.putReading(PRO_2?._id ?? '', reading(t, { temp1: 4 }), JSON.stringify({ published_at: t, temp1: 4 }));
  const token = await env.stack.signIn('admin@vatman.local');
  // Wait until the ingest has stored every published reading.
  await until(async () => {
    const res = await env.stack.post('/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }, token);
    const rows = res.body as { name: string; last_updated?: { published_at: string } }[];
    return rows.filter((r) => r.last_updated?.published_at === at).length === DEMO_DEVICES.length - 1 ? rows : undefined;
  }, { timeoutMs: 20_000 });
}, 120_000);
afterAll(async () => mq?.endAsync());

const openAs = (email: string, path: string): Promise<Page> => openPage(env.browser, env.web, email, path, { acceptDownloads: true });

describe.skipIf(!env.run)('device list (Admin and Installer)', () => {
  it.each(['admin@vatman.local', 'installer@vatman.local'])('%s sees every demo device with its live values, and "down" finds the silent one', async (email) => {
    const page = await openAs(email, '/dts/devices');
    await withShot(page, `devices-list-${email.split('@')[0]}`, async () => {
      // The first table is the fleet (an Admin's page has the changes table below it).
      const table = page.getByRole('table').first();
      await table.waitFor();
      for (const d of DEMO_DEVICES) await expect(table.getByRole('link', { name: d.name, exact: true }).count()).resolves.toBe(1);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'vm-31245-1', exact: true }) });
      await expect(row.getByText('3.7 °C').count()).resolves.toBe(1);
      await expect(row.getByText('31245 / Vat 1').count()).resolves.toBe(1);
      await page.getByRole('searchbox', { name: 'Search devices' }).fill('down');
      await until(async () => ((await table.getByRole('link').allTextContents()).join() === SILENT ? true : undefined), { timeoutMs: 5_000 });
    });
    await shot(page, `devices-list-${email.split('@')[0]}`);
    await page.context().close();
  });
});

describe.skipIf(!env.run)("device list changes (Admin)", () => {
  it('lists a retire and a restore made with the toggle, newest first, with who made them', async () => {
    const page = await openAs('admin@vatman.local', '/dts/devices');
    await withShot(page, 'devices-audit', async () => {
      const changes = page.getByRole('table', { name: 'Changes' });
      const rowsOf = async () => (await changes.getByRole('row').allInnerTexts()).slice(1).filter((r) => r.includes('vm-31245-2'));
      await page.getByRole('switch', { name: 'vm-31245-2 active' }).click();
      await until(async () => ((await rowsOf()).length === 1 ? true : undefined), { timeoutMs: 10_000 });
      await page.getByRole('button', { name: 'Inactive', exact: true }).click();
      await page.getByRole('switch', { name: 'vm-31245-2 active' }).click();
      const rows = await until(async () => {
        const r = await rowsOf();
        return r.length === 2 ? r : undefined;
      }, { timeoutMs: 10_000 });
      const cells = rows.map((r) => r.split('\t').map((c) => c.trim()));
      expect(cells[0]?.slice(1)).toEqual(['admin@vatman.local', 'DEVICE_EDIT', 'vm-31245-2', 'Inactive', 'Active']);
      expect(cells[1]?.slice(1)).toEqual(['admin@vatman.local', 'DEVICE_EDIT', 'vm-31245-2', 'Active', 'Inactive']);
    });
    await shot(page, 'devices-audit');
    await page.context().close();
  });

  it("is left out of an Installer's page", async () => {
    const page = await openAs('installer@vatman.local', '/dts/devices');
    await page.getByRole('table').first().waitFor();
    // The section waits for its answer like the list; the 403 takes it away.
    await until(async () => ((await page.getByRole('heading', { name: 'Changes' }).count()) === 0 ? true : undefined), { timeoutMs: 10_000 });
    await expect(page.getByRole('switch', { name: 'vm-31245-1 active' }).count()).resolves.toBe(1);
    await page.context().close();
  });
});

describe.skipIf(!env.run)('device page', () => {
  it('shows the published reading on the gauges and charts; a click on a point opens its raw message', async () => {
    const page = await openAs('installer@vatman.local', `/dts/device/${PRO_1?._id ?? ''}`);
    await withShot(page, 'device-page', async () => {
      const vat = page.getByRole('meter', { name: 'Vat Temp (°C)' });
      await vat.waitFor();
      expect(await vat.getAttribute('aria-valuetext')).toBe('3.7 °C');
      const chart = page.getByRole('img', { name: 'Temperatures (°C)' });
      await chart.waitFor();
      // The published reading is the newest point: click at the chart's right edge.
      await chart.scrollIntoViewIfNeeded();
      const box = await chart.boundingBox();
      if (!box) throw new Error('no chart box');
      await page.mouse.click(box.x + box.width - 40, box.y + box.height / 2);
      const dialog = page.getByRole('dialog', { name: 'Raw message' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('"temp1": 3.7');
    });
    await shot(page, 'device-page');
    await page.context().close();
  });

  it("downloads yesterday's raw messages by the farm's local day", async () => {
    const page = await openAs('admin@vatman.local', `/dts/device/${PRO_2?._id ?? ''}`);
    await withShot(page, 'device-raws', async () => {
      await page.getByRole('button', { name: 'Raw data' }).click();
      const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      const label = `RAW ${yesterday.slice(8, 10)} ${months[Number(yesterday.slice(5, 7)) - 1]} ${yesterday.slice(0, 4)}`;
      await page.getByRole('navigation', { name: 'Raw data by day' }).getByRole('button', { name: label }).click();
      const day = page.getByRole('dialog', { name: label });
      await day.getByRole('listitem').first().waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), day.getByRole('button', { name: 'Download' }).click()]);
      const text = await readFile((await download.path()) ?? '', 'utf8');
      const stamps = text.trim().split('\n').map((l) => (JSON.parse(l) as { published_at: string }).published_at);
      expect(stamps).toEqual(insideYesterday);
    });
    await page.context().close();
  });
});
