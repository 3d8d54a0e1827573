import mqtt, { type MqttClient } from 'mqtt';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoEquipmentRepository } from '../../lambdas/adapters/dynamodb/equipment-repository';
import type { EquipmentRepository } from '../../lambdas/ports/equipment';
import { DEMO_DEVICES, DEMO_EQUIPMENT } from '../../local/seed/demo-data';
import type { Device } from '../../shared/entities/device';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { browserTestFile, farmContext, shot, signIn, withShot } from '../support/browser';

/**
 * In Chromium against the local stack, at 1280 and at 375 px: on Totara
 * Downs (farm-pro, seeded with a plate chiller and two plain vats) the builder changes the plant
 * to an ice bank with two fridges on vat 2 (a Vat with sidewall, Fridge2); Finish returns to
 * /dts/equipment, whose diagram now draws them, and each vat's label shows the temperature a
 * reading published over MQTT a moment before carried (this stack has no simulator).
 */
const env = browserTestFile('equipment');
const { run } = env;
const FARM = 'farm-pro';
let client: MqttClient;
let equipment: EquipmentRepository;

const vatsOf = (farmId: string): Device[] => DEMO_DEVICES.filter((d) => d.farm_id === farmId).sort((a, b) => a.vat_number - b.vat_number);

beforeAll(async () => {
  if (!run) return;
  client = await mqtt.connectAsync(env.stack.facts.mqtt, { clientId: 'equipment-browser-test' });
  equipment = dynamoEquipmentRepository(createDocumentClient(), env.stack.facts.dynamodb.farmsTable);
}, 60_000);
afterAll(async () => client?.endAsync());

let farmerToken: string | undefined;
const token = async () => (farmerToken ??= await env.stack.signIn('farmer@vatman.local'));

/** Publishes a reading per vat of the farm with the given temperatures, and waits until EQUIPMENT_DATA_GET answers them. */
const publishTemperatures = async (temps: readonly number[]) => {
  const publishedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000).toISOString();
  const vats = vatsOf(FARM);
  await Promise.all(
    vats.map((d, i) =>
      client.publishAsync(
        telemetryTopic(d.name),
        JSON.stringify({ published_at: publishedAt, milk_level: 700 + i * 150, temp1: temps[i], agitator_status: 1, state_machine: 'storage', battery: { status: '0x0B' } }),
        { qos: 1 },
      ),
    ),
  );
  const started = Date.now();
  for (;;) {
    const res = await env.stack.post('/api/farmer/equipment', { type: 'EQUIPMENT_DATA_GET', farm: FARM }, await token());
    const body = res.body as Record<string, { published_at: string | null } | null>;
    if (res.status === 200 && vats.every((d) => body[`vat${d.vat_number}`]?.published_at === publishedAt)) return;
    if (Date.now() - started > 30_000) throw new Error(`readings not ingested: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const open = async (width: number, farmId = FARM): Promise<{ context: BrowserContext; page: Page }> => {
  const phone = width < 720;
  const context = await farmContext(env.browser, env.web, farmId, { width, height: phone ? 800 : 900, timezoneId: 'Pacific/Auckland', ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  const page = await context.newPage();
  await page.goto(`${env.web}/dts/equipment`);
  await signIn(page, 'farmer@vatman.local');
  await page.waitForURL(`${env.web}/dts/equipment`);
  return { context, page };
};

const diagram = (page: Page) => page.getByRole('group', { name: 'Equipment diagram' });
const vat = (page: Page, n: number) => diagram(page).getByRole('group', { name: `Vat ${n}`, exact: true });
const fridgeCount = (group: Locator) => group.getByRole('img', { name: /^Fridge unit/ }).count();
const temperatureOf = async (group: Locator) => ((await group.locator('[data-label="temperature"]').textContent()) ?? '').trim();

/** Elements of the screen (the farm tab bar scrolls by design) whose box reaches past the viewport's left or right edge. */
const OUTSIDE_VIEWPORT = `[...document.querySelectorAll('.equipment, .equipment *, .equipment-builder, .equipment-builder *')]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5); })
  .map((e) => e.tagName.toLowerCase() + '.' + String(e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className))`;
const fits = async (page: Page, width: number) => {
  expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(width);
  expect(await page.evaluate(OUTSIDE_VIEWPORT)).toEqual([]);
};

describe.runIf(run)('the equipment diagram and its builder in Chromium', () => {
  it.each([
    [1280, [3.4, 5.1]],
    [375, [2.6, 7.8]],
  ])('at %i px: the builder makes the Pro farm an ice bank with two fridges on vat 2; Finish returns to the diagram drawing them with the live temperatures', async (width, temps) => {
    // Each width starts from the seeded plant: a plate chiller (Chilling) and two plain vats with one fridge each.
    await equipment.putEquipment(FARM, DEMO_EQUIPMENT[FARM] ?? [], { userId: 'test', at: new Date().toISOString() });
    await publishTemperatures(temps);
    const { context, page } = await open(width);
    await withShot(page, `equipment-${width}`, async () => {
      await page.getByRole('heading', { level: 1, name: 'Equipment' }).waitFor();
      await vat(page, 2).waitFor();
      expect(await diagram(page).getByRole('group', { name: 'Pre-cooling: Chilling' }).count()).toBe(1);
      expect(await fridgeCount(vat(page, 2))).toBe(1);
      if (width < 720) await fits(page, width);

      await page.getByRole('link', { name: 'Equipment settings' }).click();
      await page.waitForURL(`${env.web}/dts/equipment/builder`);
      await page.getByRole('heading', { level: 2, name: 'Setting the pre-cooling system' }).waitFor();
      const preCooling = page.getByRole('group', { name: 'Pre-cooling system' });
      expect(await preCooling.getByRole('radio', { name: 'Chilling' }).isChecked()).toBe(true);
      await preCooling.getByRole('radio', { name: 'Ice Bank' }).check();
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { level: 2, name: 'Setting the refrigerator system' }).waitFor();
      const vat2 = page.getByRole('group', { name: 'Vat 2', exact: true });
      await vat2.getByRole('group', { name: 'Vat type' }).getByRole('radio', { name: 'Vat with sidewall' }).check();
      // Choosing the type reset the sub-type to Fridge1; the sidewall vat offers Fridge1 to Fridge3.
      expect(await vat2.getByRole('group', { name: 'Sub-type' }).getByRole('radio', { name: 'Fridge1' }).isChecked()).toBe(true);
      await vat2.getByRole('group', { name: 'Sub-type' }).getByRole('radio', { name: 'Fridge2' }).check();
      if (width < 720) await fits(page, width);
      await shot(page, `equipment-builder-${width}`);
      await page.getByRole('button', { name: 'Next' }).click();

      await page.getByRole('heading', { level: 2, name: 'Finished' }).waitFor();
      expect(await page.locator('.builder__summary li').allTextContents()).toEqual(['Pre-cooling: Ice Bank', 'Vat 1: Vat, Fridge1', 'Vat 2: Vat with sidewall, Fridge2']);
      await page.getByRole('button', { name: 'Finish' }).click();

      await page.waitForURL(`${env.web}/dts/equipment`);
      await diagram(page).getByRole('group', { name: 'Pre-cooling: Ice Bank' }).waitFor();
      expect(await diagram(page).getByRole('img', { name: 'Ice bank feeding a plate chiller' }).count()).toBe(1);
      expect(await vat(page, 2).getByRole('img', { name: 'Vat with sidewall' }).count()).toBe(1);
      expect(await fridgeCount(vat(page, 2))).toBe(2);
      expect(await fridgeCount(vat(page, 1))).toBe(1);
      // The live labels: each vat's temperature of the reading published a moment before (1 decimal, §9).
      for (const [i, t] of temps.entries()) {
        await expect.poll(() => temperatureOf(vat(page, i + 1))).toBe(`${t.toFixed(1)} °C`);
      }
      expect(await equipment.getEquipment(FARM)).toEqual([
        { type: 1, id: 1, value: 2, sub_value: 0 },
        { type: 2, id: 1, value: 1, sub_value: 1 },
        { type: 2, id: 2, value: 2, sub_value: 2 },
      ]);
      // The diagram is drawn to the screen: on a phone it shrinks to the page's width.
      const box = await diagram(page).boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(width < 720 ? 300 : 450);
      expect(box?.width ?? Infinity).toBeLessThanOrEqual(width);
      if (width < 720) await fits(page, width);
      await shot(page, `equipment-diagram-${width}`);
    });
    await context.close();
  });
});

describe.runIf(run)('every vat of the farm on the diagram', () => {
  it.each([
    ['farm-auto', 1280, 'Pre-cooling: Ice Bank', 4],
    ['farm-auto', 375, 'Pre-cooling: Ice Bank', 4],
    ['farm-lite', 375, 'Pre-cooling: None', 1],
  ])('%s at %i px: %s and %i vat(s), within the screen', async (farmId, width, preCooling, vats) => {
    const { context, page } = await open(width, farmId);
    await withShot(page, `equipment-${farmId}-${width}`, async () => {
      await vat(page, vats).waitFor();
      expect(await diagram(page).getByRole('group', { name: /^Vat \d$/ }).count()).toBe(vats);
      expect(await diagram(page).getByRole('group', { name: preCooling }).count()).toBe(1);
      if (farmId === 'farm-auto') {
        // The seeded sidewall vat with two fridges.
        expect(await vat(page, 1).getByRole('img', { name: 'Vat with sidewall' }).count()).toBe(1);
        expect(await fridgeCount(vat(page, 1))).toBe(2);
      }
      if (width < 720) await fits(page, width);
      await shot(page, `equipment-${farmId}-${width}`);
    });
    await context.close();
  });
});
