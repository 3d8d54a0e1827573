import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { ensureTables, startDynamo, type DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { dayOf } from '../../shared/time/utc';
import { freePort } from '../support/free-port';
import { reading } from '../support/reading-series';

/**
 * The read path's partial bucket of an open day against a late reading: a range read that read
 * the day before the late reading was stored must not put its stale partial back after the ingest
 * dropped it (it would hide the late reading for up to an hour).
 */
let dynamo: DynamoStandIn;
let doc: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dynamo = await startDynamo(await freePort());
  table = (await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), 'partial')).READINGS_TABLE as string;
  doc = createDocumentClient({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' });
});
afterAll(async () => dynamo?.stop());

describe('partial bucket of an open day', () => {
  it('a read that raced the drop of a late reading cannot put its stale partial back; the next read shows the reading', async () => {
    // Yesterday is still an open day to the range reads (the last two days of a range are).
    const today = dayOf(new Date(Date.now() - 86_400_000).toISOString());
    const start = Date.parse(`${today}T00:00:00.000Z`);
    const at = (m: number) => new Date(start + m * 60_000).toISOString();
    const repo = dynamoReadingsRepository(doc, table);
    const minutes = 200;
    await repo.writeReadings(Array.from({ length: minutes }, (_, m) => m).filter((m) => m !== 5).map((m) => ({ deviceId: 'd1', reading: reading(at(m)), raw: '{}' })));

    // A reader whose query of the day runs before the late reading (minute 5) is stored, and whose
    // partial write comes after the ingest stored it and dropped the partial.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let paused: (() => void) | undefined;
    const reachedGate = new Promise<void>((r) => (paused = r));
    const slowDoc = new Proxy(doc, {
      get(target, key) {
        if (key !== 'send') return Reflect.get(target, key) as unknown;
        return async (command: { constructor: { name: string }; input: { KeyConditionExpression?: string } }) => {
          const out = await target.send(command as never);
          if (command.constructor.name === 'QueryCommand' && paused) {
            paused();
            paused = undefined;
            await gate;
          }
          return out;
        };
      },
    });
    const slow = dynamoReadingsRepository(slowDoc, table);
    const racing = slow.readRangeColumns(['d1'], at(0), at(minutes));
    await reachedGate;
    await repo.writeReadings([{ deviceId: 'd1', reading: reading(at(5)), raw: '{}' }]);
    await repo.dropPartial('d1', today);
    release();
    const stale = await racing;
    expect(stale[0]?.t.length).toBe(minutes - 1);
    const item = (await doc.send(new GetCommand({ TableName: table, Key: { pk: 'P#d1', sk: today } }))).Item;
    expect(item?.gen).toBe(1);
    expect(item?.through).toBeUndefined();

    // The next read sees the tombstone, reads the day with the late reading and writes the partial.
    const fresh = await repo.readRangeColumns(['d1'], at(0), at(minutes));
    expect(fresh[0]?.t.length).toBe(minutes);
    const rewritten = (await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P#d1' } }))).Items?.[0];
    expect(rewritten?.gen).toBe(1);
    expect(typeof rewritten?.through).toBe('string');
    // …and it is trusted from then on, holding the late reading.
    const again = await dynamoReadingsRepository(doc, table).readRangeColumns(['d1'], at(0), at(minutes));
    expect(again[0]?.t.length).toBe(minutes);
  });
});
