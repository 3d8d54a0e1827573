import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoEquipmentRepository } from '../../lambdas/adapters/dynamodb/equipment-repository';
import type { EquipmentRepository } from '../../lambdas/ports/equipment';
import { DEMO_DEVICES, DEMO_EQUIPMENT } from '../../local/seed/demo-data';
import { EQUIPMENT_MESSAGES } from '../../shared/entities/equipment';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { startTestStack } from '../support/local-stack';

/**
 * /api/farmer/equipment (farmer §2.13, §3 Equipment item, §7) through the local stack: gateway,
 * JWT authorizer stand-in, the equipment Lambda's handler, dynalite, and for the live values the
 * MQTT broker and the ingest. farmer@ has farm-lite (1 vat), farm-pro (2) and farm-auto (4);
 * farm-wes (3 vats) is westfarmer@'s.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let equipment: EquipmentRepository;
let farmer: string;
let stranger: string;

const PATH = '/api/farmer/equipment';
const call = (fields: Record<string, string>, token = farmer) => stack.post(PATH, fields, token);
const update = (farm: string, items: unknown, token = farmer) => call({ type: 'EQUIPMENT_UPDATE', farm, equipment: JSON.stringify(items) }, token);

const pre = (value: number) => ({ type: 1, id: 1, value, sub_value: 0 });
const vat = (id: number, value: number, sub_value: number) => ({ type: 2, id, value, sub_value });

beforeAll(async () => {
  stack = await startTestStack();
  equipment = dynamoEquipmentRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  [farmer, stranger] = await Promise.all([stack.signIn('farmer@vatman.local'), stack.signIn('westfarmer@vatman.local')]);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('EQUIPMENT_GET', () => {
  it.each([
    ['farm-lite', 'no pre-cooling and a plain vat', [pre(0), vat(1, 1, 1)]],
    ['farm-pro', 'a plate chiller (Chilling) and two plain vats', [pre(1), vat(1, 1, 1), vat(2, 1, 1)]],
    ['farm-auto', 'an ice bank and a sidewall vat with two fridges', [pre(2), vat(1, 2, 2), vat(2, 1, 1), vat(3, 1, 1), vat(4, 1, 1)]],
  ])("answers %s's seeded plant: %s", async (farm, _what, items) => {
    expect(DEMO_EQUIPMENT[farm]).toEqual(items);
    expect(await call({ type: 'EQUIPMENT_GET', farm })).toEqual({ status: 200, body: items });
  });

  it('answers the defaults (no pre-cooling, each vat plain with one fridge) for a farm never described', async () => {
    expect(await equipment.getEquipment('farm-wes')).toBeUndefined();
    expect(await call({ type: 'EQUIPMENT_GET', farm: 'farm-wes' }, stranger)).toEqual({ status: 200, body: [pre(0), vat(1, 1, 1), vat(2, 1, 1), vat(3, 1, 1)] });
  });
});

describe('EQUIPMENT_UPDATE', () => {
  it("replaces the farm's whole set in one item and answers it; EQUIPMENT_GET then reads it", async () => {
    const items = [vat(2, 2, 3), pre(2), vat(1, 1, 1)];
    const sorted = [pre(2), vat(1, 1, 1), vat(2, 2, 3)];
    expect(await update('farm-pro', items)).toEqual({ status: 200, body: sorted });
    expect(await equipment.getEquipment('farm-pro')).toEqual(sorted);
    expect(await call({ type: 'EQUIPMENT_GET', farm: 'farm-pro' })).toEqual({ status: 200, body: sorted });
    // A set that leaves a vat out replaces the old one too: the vat reads as the default again.
    expect(await update('farm-pro', [pre(1), vat(1, 2, 2)])).toEqual({ status: 200, body: [pre(1), vat(1, 2, 2), vat(2, 1, 1)] });
    expect(await equipment.getEquipment('farm-pro')).toEqual([pre(1), vat(1, 2, 2)]);
  });

  it('reads numbers sent as text (a form-minded client) and a missing sub_value as its default', async () => {
    const res = await update('farm-lite', [{ type: '1', id: '1', value: '2' }, { type: 2, id: 1, value: 2 }]);
    expect(res).toEqual({ status: 200, body: [pre(2), vat(1, 2, 1)] });
    await update('farm-lite', DEMO_EQUIPMENT['farm-lite']);
  });

  it.each([
    ['an unknown type', [pre(1), { type: 3, id: 1, value: 1, sub_value: 1 }], EQUIPMENT_MESSAGES.unknownType(3)],
    ['another unknown type', [{ type: 0, id: 1, value: 0, sub_value: 0 }], EQUIPMENT_MESSAGES.unknownType(0)],
    ['an unknown pre-cooling value', [pre(3), vat(1, 1, 1)], EQUIPMENT_MESSAGES.unknownPreCooling(3)],
    ['an unknown vat value', [pre(1), vat(1, 3, 1)], EQUIPMENT_MESSAGES.unknownVatValue(1, 3)],
    ['a vat value of 0', [vat(2, 0, 1)], EQUIPMENT_MESSAGES.unknownVatValue(2, 0)],
    ['a sub-value a plain vat has not (Fridge1 only)', [vat(1, 1, 2)], EQUIPMENT_MESSAGES.unknownSubValue(1, 2)],
    ['a sub-value past Fridge3', [vat(2, 2, 4)], EQUIPMENT_MESSAGES.unknownSubValue(2, 4)],
    ['a pre-cooling sub_value', [{ ...pre(1), sub_value: 2 }], EQUIPMENT_MESSAGES.preCoolingSubValue],
    ['a second pre-cooling id', [{ ...pre(1), id: 2 }], EQUIPMENT_MESSAGES.preCoolingId],
    ['a vat the farm has not', [pre(1), vat(1, 1, 1), vat(3, 1, 1)], EQUIPMENT_MESSAGES.unknownVat(3)],
    ['a vat listed twice', [vat(1, 1, 1), vat(1, 2, 2)], EQUIPMENT_MESSAGES.twice(1)],
    ['two pre-cooling systems', [pre(1), pre(2)], EQUIPMENT_MESSAGES.twoPreCooling],
    ['a field outside the item', [{ ...vat(1, 1, 1), colour: 'red' }], EQUIPMENT_MESSAGES.notItem],
    ['a fractional value', [vat(1, 1.5, 1)], EQUIPMENT_MESSAGES.notItem],
    ['an object instead of a list', pre(1), EQUIPMENT_MESSAGES.notList],
    ['too many items', [pre(1), vat(1, 1, 1), vat(2, 1, 1), vat(3, 1, 1), vat(4, 1, 1), vat(5, 1, 1)], EQUIPMENT_MESSAGES.tooMany],
  ])('refuses %s with 422 and stores nothing', async (_what, items, message) => {
    const before = await equipment.getEquipment('farm-pro');
    expect(await update('farm-pro', items)).toEqual({ status: 422, body: { message } });
    expect(await equipment.getEquipment('farm-pro')).toEqual(before);
  });

  it('refuses text that is not JSON, and a missing list, with 422', async () => {
    const before = await equipment.getEquipment('farm-pro');
    expect(await call({ type: 'EQUIPMENT_UPDATE', farm: 'farm-pro', equipment: '[{type:1' })).toEqual({ status: 422, body: { message: 'equipment must be valid JSON' } });
    expect(await call({ type: 'EQUIPMENT_UPDATE', farm: 'farm-pro' })).toEqual({ status: 422, body: { message: EQUIPMENT_MESSAGES.notList } });
    expect(await equipment.getEquipment('farm-pro')).toEqual(before);
  });
});

describe('a stranger', () => {
  it("(another farm's farmer) is refused every type on the farm with 403, and nothing is stored", async () => {
    const before = await equipment.getEquipment('farm-pro');
    for (const type of ['EQUIPMENT_GET', 'EQUIPMENT_DATA_GET']) {
      expect(await call({ type, farm: 'farm-pro' }, stranger)).toEqual({ status: 403, body: { message: 'Forbidden' } });
    }
    expect(await update('farm-pro', [pre(0), vat(1, 1, 1)], stranger)).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(await equipment.getEquipment('farm-pro')).toEqual(before);
    // A farm that does not exist answers the same, so farms cannot be probed.
    expect(await update('farm-nowhere', [pre(0)], stranger)).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(await equipment.getEquipment('farm-nowhere')).toBeUndefined();
  });

  it('with no token is a 401', async () => {
    expect((await stack.post(PATH, { type: 'EQUIPMENT_GET', farm: 'farm-pro' })).status).toBe(401);
  });
});

describe('EQUIPMENT_DATA_GET', () => {
  it('keeps the spec’s vat1 and vat2 (null where the farm has no such vat) and adds vat3 and vat4 only when the farm has them', async () => {
    const lite = await call({ type: 'EQUIPMENT_DATA_GET', farm: 'farm-lite' });
    expect(lite.status).toBe(200);
    expect(lite.body).toEqual({ vat1: expect.objectContaining({ vat_number: 1, vat_size: 9100 }), vat2: null });
    const auto = await call({ type: 'EQUIPMENT_DATA_GET', farm: 'farm-auto' });
    expect(Object.keys(auto.body as object).sort()).toEqual(['vat1', 'vat2', 'vat3', 'vat4']);
    expect((auto.body as Record<string, { vat_size: number }>).vat3?.vat_size).toBe(18000);
  });

  it("answers each vat's newest temp1, agitator_status, milk_volume and its vat_size from a reading published over MQTT", async () => {
    const device = DEMO_DEVICES.find((d) => d.farm_id === 'farm-pro' && d.vat_number === 2);
    if (!device) throw new Error('no vat 2 on farm-pro');
    const client = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'equipment-test' });
    const publishedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    await client.publishAsync(
      telemetryTopic(device.name),
      JSON.stringify({ published_at: publishedAt, milk_level: 900, temp1: 3.7, agitator_status: 0, state_machine: 'storage', battery: { status: '0x0B' } }),
      { qos: 1 },
    );
    await client.endAsync();
    await expect
      .poll(async () => ((await call({ type: 'EQUIPMENT_DATA_GET', farm: 'farm-pro' })).body as { vat2: { published_at: string | null } }).vat2.published_at, { timeout: 30_000, interval: 200 })
      .toBe(publishedAt);
    const { body } = await call({ type: 'EQUIPMENT_DATA_GET', farm: 'farm-pro' });
    const vat2 = (body as { vat2: Record<string, unknown> }).vat2;
    expect(vat2).toMatchObject({ vat_number: 2, vat_size: 11000, temp1: 3.7, agitator_status: 0 });
    expect(vat2.milk_volume).toEqual(expect.any(Number));
    expect((body as { vat1: { published_at: string | null } }).vat1.published_at).toBeNull();
  });
});
