import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoPickupRepository } from '../../lambdas/adapters/dynamodb/pickups-repository';
import type { PickupRepository } from '../../lambdas/ports/pickups';
import { PICKUP_DELETE_REFUSED, PICKUP_MESSAGES, toWireTime } from '../../shared/api/actions/farmer-pickup';
import { startTestStack } from '../support/local-stack';

/**
 * ADD_PICKUP (farmer §2.14, §5, §7) through the local stack: gateway, JWT authorizer stand-in,
 * the activity Lambda's handler, dynalite. farmer@ has farm-lite (OCD40721, one vat) and the
 * dairy-company farms farm-pro (31245) and farm-auto (FON50412); farm-wes is westfarmer@'s.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let pickups: PickupRepository;
let farmer: string;

const PATH = '/api/farmer/activity';
const HOUR = 3_600_000;
const twoHoursAgo = Math.floor((Date.now() - 2 * HOUR) / 1000) * 1000;

const fields = (over: Record<string, string> = {}) => ({
  type: 'ADD_PICKUP',
  farm_id: 'farm-lite',
  vat: '1',
  datetime: toWireTime(twoHoursAgo),
  volume: '8450',
  temperature: '3.8',
  ...over,
});
const call = (f: Record<string, string>, token = farmer) => stack.post(PATH, f, token);

beforeAll(async () => {
  stack = await startTestStack();
  pickups = dynamoPickupRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  farmer = await stack.signIn('farmer@vatman.local');
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('ADD_PICKUP', () => {
  it('stores the pickup in the Farms table under the farm and answers success', async () => {
    expect(await call(fields())).toEqual({ status: 200, body: 'success' });
    const stored = await pickups.listPickups('farm-lite');
    expect(stored).toEqual([
      expect.objectContaining({ farm_id: 'farm-lite', vat: 1, device_id: 'dev-ocd40721-1', datetime: new Date(twoHoursAgo).toISOString(), volume: 8450, temperature: 3.8 }),
    ]);
    expect(stored[0]?.submitted_by).toMatch(/\S/);
  });

  it('takes the temperature as optional (stored as null), and the same vat and time again replaces the entry', async () => {
    expect(await call(fields({ temperature: '', volume: '8500' }))).toEqual({ status: 200, body: 'success' });
    const stored = await pickups.listPickups('farm-lite');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ volume: 8500, temperature: null });
  });

  it.each([
    [{ volume: '' }, 'Volume is required'],
    [{ datetime: '' }, 'Pickup Time is required'],
    [{ volume: '-5' }, 'Volume must be 0 or more'],
    [{ temperature: '-1' }, 'Temperature must be 0 or more'],
    [{ vat: '-1' }, 'Vat must be 0 or more'],
    [{ volume: 'lots' }, 'Volume must be a number'],
    [{ datetime: '2026-02-30 08:00:00' }, 'Pickup Time must be a date and time as YYYY-MM-DD HH:mm:ss'],
    [{ datetime: toWireTime(Date.now() + 2 * HOUR) }, PICKUP_MESSAGES.future],
    [{ vat: '2' }, PICKUP_MESSAGES.unknownVat(2)],
  ])('refuses %o with 422 %s and stores nothing', async (over, message) => {
    const at = toWireTime(twoHoursAgo - 5 * HOUR);
    expect(await call(fields({ datetime: at, ...over }))).toEqual({ status: 422, body: { message } });
    expect((await pickups.listPickups('farm-lite')).map((p) => p.datetime)).not.toContain(new Date(Date.parse(`${at.replace(' ', 'T')}Z`)).toISOString());
    expect(await pickups.listPickups('farm-lite')).toHaveLength(1);
  });

  it('is 403 for another farmer’s farm and a farm that does not exist, storing nothing', async () => {
    expect(await call(fields({ farm_id: 'farm-wes' }))).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(await call(fields({ farm_id: 'farm-nowhere' }))).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(await pickups.listPickups('farm-wes')).toEqual([]);
  });

  it('is 403 on the farmer’s own dairy-company farm (§6: Submit Pickup is hidden there)', async () => {
    expect(await call(fields({ farm_id: 'farm-pro' }))).toEqual({ status: 403, body: { message: PICKUP_MESSAGES.dairyCompany } });
    expect(await pickups.listPickups('farm-pro')).toEqual([]);
  });

  it('lets the other farmer add to their own farm, and needs a token', async () => {
    const west = await stack.signIn('westfarmer@vatman.local');
    expect(await call(fields({ farm_id: 'farm-wes', vat: '3' }), west)).toEqual({ status: 200, body: 'success' });
    expect((await pickups.listPickups('farm-wes')).map((p) => p.vat)).toEqual([3]);
    expect((await stack.post(PATH, fields())).status).toBe(401);
  });
});

describe('FARMER_PICKUP_LIST and DELETE_PICKUP (/dts/collection)', () => {
  const list = async (token: string, farm = 'farm-lite') => stack.post(PATH, { type: 'FARMER_PICKUP_LIST', farm }, token);
  const remove = (token: string, over: Record<string, string> = {}) =>
    stack.post(PATH, { type: 'DELETE_PICKUP', farm_id: 'farm-lite', vat: '1', datetime: toWireTime(twoHoursAgo), ...over }, token);

  it("lists the farm's pickups of the 30 days, newest first, marked mine for the one who entered them", async () => {
    expect(await call(fields({ datetime: toWireTime(twoHoursAgo - 30 * HOUR), volume: '7000' }))).toEqual({ status: 200, body: 'success' });
    const mine = await list(farmer);
    expect(mine.status).toBe(200);
    const body = mine.body as { range: { startDate: string }; list: { datetime: string; volume: number; mine: boolean }[] };
    expect(body.list.map((p) => [p.datetime, p.volume, p.mine])).toEqual([
      [new Date(twoHoursAgo).toISOString(), 8500, true],
      [new Date(twoHoursAgo - 30 * HOUR).toISOString(), 7000, true],
    ]);
    expect(body.list[0]).not.toHaveProperty('submitted_by');
    // The Admin may see the farm's list; nothing in it is theirs.
    const admin = await stack.signIn('admin@vatman.local');
    expect(((await list(admin)).body as { list: { mine: boolean }[] }).list.map((p) => p.mine)).toEqual([false, false]);
    expect((await list(farmer, 'farm-wes')).status).toBe(403);
  });

  it('deletes a pickup only for the person who entered it; one already gone answers success', async () => {
    const admin = await stack.signIn('admin@vatman.local');
    expect(await remove(admin)).toEqual({ status: 403, body: { message: PICKUP_DELETE_REFUSED } });
    expect(await pickups.listPickups('farm-lite')).toHaveLength(2);
    const west = await stack.signIn('westfarmer@vatman.local');
    expect((await remove(west)).status).toBe(403);
    expect(await remove(farmer)).toEqual({ status: 200, body: 'success' });
    expect((await pickups.listPickups('farm-lite')).map((p) => p.volume)).toEqual([7000]);
    expect(await remove(farmer)).toEqual({ status: 200, body: 'success' });
    expect(await pickups.listPickups('farm-lite')).toHaveLength(1);
  });
});
