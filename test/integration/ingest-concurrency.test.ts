import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dayOf } from '../../shared/time/utc';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { makeIngest } from '../../lambdas/ingest/ingest';
import { createLogger } from '../../lambdas/lib/logger';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import type { DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { startDynaliteTables } from '../support/dynalite';
import { shuffled, storedState, trace } from '../support/telemetry';

/**
 * In AWS one device's messages can run in two warm Lambda containers at once, each with its own
 * cached copy of the device's state. The optimistic lock must make them end where a single
 * in-order run ends. Here two ingest instances (two "containers", separate caches) share dynalite.
 */
let dynamo: DynamoStandIn;
let farms: FarmRepository;
let readings: ReadingsRepository;

const vat = (id: string) => ({
  _id: id,
  name: `vm-${id}`,
  farm_id: 'farm-x',
  vat_number: 1,
  status: 1 as const,
  vat_size: 21_500,
  vat_max_height: 3500,
  vat_diameter: 2875,
  wedgeHeight: 60,
  vat_volume_offset: 0,
  vat_auto: false,
});

const event = (thing: string, message: object) => ({
  topic: telemetryTopic(thing),
  received_at: Date.now(),
  payload: Buffer.from(JSON.stringify(message)).toString('base64'),
});

beforeAll(async () => {
  const store = await startDynaliteTables('conc');
  dynamo = store.dynamo;
  farms = dynamoFarmRepository(store.doc(), store.tables.FARMS_TABLE as string);
  readings = dynamoReadingsRepository(store.doc(), store.tables.READINGS_TABLE as string);
  for (const id of ['solo', 'pair', 'batched']) await farms.putDevice(vat(id));
});
afterAll(async () => dynamo?.stop());

describe('two containers ingesting one device at once', () => {
  // Many messages late, two containers contending: each late one costs a replay intent, a write
  // and a replay commit under the lock, each retried when the other container won.
  it('end in the state of one container taking the messages in order', async () => {
    const log = createLogger({}, 'error');
    const container = () => makeIngest({ farms, readings, now: () => new Date(), log });
    const midnight = Date.parse(`${dayOf(new Date(Date.now() - 86_400_000).toISOString())}T00:00:00.000Z`);
    const messages = trace(midnight - 95 * 60_000, 200);

    const solo = container();
    for (const m of messages) await solo(event('vm-solo', m));

    // Each message twice, shuffled, dealt alternately to two containers that run side by side.
    const [a, b] = [container(), container()];
    const deck = shuffled([...messages, ...messages], 11);
    await Promise.all([
      (async () => {
        for (let i = 0; i < deck.length; i += 2) await a(event('vm-pair', deck[i] as object));
      })(),
      (async () => {
        for (let i = 1; i < deck.length; i += 2) await b(event('vm-pair', deck[i] as object));
      })(),
    ]);

    const from = messages[0]!.published_at;
    const to = messages.at(-1)!.published_at;
    const once = await storedState(farms, readings, 'solo', from, to);
    const pair = await storedState(farms, readings, 'pair', from, to);
    expect(once.ingest?.n).toBe(messages.length);
    expect(pair).toEqual(once);
  }, 150_000);

  it('end there too when the messages come in batches: shuffled, repeated within a batch and across batches', async () => {
    const log = createLogger({}, 'error');
    const container = () => makeIngest({ farms, readings, now: () => new Date(), log });
    const midnight = Date.parse(`${dayOf(new Date(Date.now() - 86_400_000).toISOString())}T00:00:00.000Z`);
    const messages = trace(midnight - 95 * 60_000, 200);
    const from = messages[0]!.published_at;
    const to = messages.at(-1)!.published_at;
    const once = await storedState(farms, readings, 'solo', from, to);

    // Three copies of each, shuffled, cut into batches of 1 to 40, dealt alternately to two containers.
    const deck = shuffled([...messages, ...messages, ...messages], 29);
    const batches: object[][] = [];
    for (let i = 0, size = 1; i < deck.length; i += size, size = 1 + ((size * 7 + 3) % 40)) batches.push(deck.slice(i, i + size).map((m) => event('vm-batched', m as object)));
    const [a, b] = [container(), container()];
    const outcomes = (
      await Promise.all(
        [a, b].map(async (c, k) => {
          const mine = [];
          for (let i = k; i < batches.length; i += 2) mine.push(...(await c.batch(batches[i] as object[])));
          return mine;
        }),
      )
    ).flat();
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(outcomes.filter((o) => o.ok && o.outcome.status === 'stored').length).toBeGreaterThan(0);

    const batched = await storedState(farms, readings, 'batched', from, to);
    expect(batched).toEqual(once);
  });
});
