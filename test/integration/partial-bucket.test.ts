import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { dayOf } from '../../shared/time/utc';
import { startReadingsTable } from '../support/readings-table';
import { reading } from '../support/reading-series';

/**
 * The range reads' open days (the last two days of a range, not yet compacted): a read writes
 * nothing to the table (it used to store a partial bucket, a write on the read path), keeps the
 * day in memory, and reads it again once the ingest's drop marker says a late reading arrived.
 */
let dynamo: DynamoStandIn;
let doc: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  ({ dynamo, doc, table } = await startReadingsTable('partial'));
});
afterAll(async () => dynamo?.stop());

/** The document client with every write command counted (by command name). */
const countingWrites = (inner: DynamoDBDocumentClient) => {
  const writes: string[] = [];
  const queries: { from?: unknown }[] = [];
  const client = new Proxy(inner, {
    get(target, key) {
      if (key !== 'send') return Reflect.get(target, key) as unknown;
      return async (command: { constructor: { name: string }; input: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
        const name = command.constructor.name;
        if (/^(Put|Update|Delete|BatchWrite|TransactWrite)/.test(name)) writes.push(name);
        if (name === 'QueryCommand') queries.push({ from: command.input.ExpressionAttributeValues?.[':a'] });
        return target.send(command as never);
      };
    },
  });
  return { client, writes, queries };
};

describe('open days of a range read', () => {
  it('a range read over open days writes nothing, and a second read asks the table only for the tail', async () => {
    const yesterday = dayOf(new Date(Date.now() - 86_400_000).toISOString());
    const start = Date.parse(`${yesterday}T00:00:00.000Z`);
    const at = (m: number) => new Date(start + m * 60_000).toISOString();
    const repo = dynamoReadingsRepository(doc, table);
    await repo.writeReadings(Array.from({ length: 300 }, (_, m) => ({ deviceId: 'quiet', reading: reading(at(m)), raw: '{}' })));

    const { client, writes, queries } = countingWrites(doc);
    const reader = dynamoReadingsRepository(client, table);
    const first = await reader.readRangeColumns(['quiet'], at(0), at(299));
    expect(first[0]?.t.length).toBe(300);
    const second = await reader.readRangeColumns(['quiet'], at(0), at(299));
    expect(second[0]?.t).toEqual(first[0]?.t);
    expect(writes).toEqual([]);
    const stored = (await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P#quiet' } }))).Items ?? [];
    expect(stored).toEqual([]);
    // The second read's query of the day starts after what memory holds (15 minutes before the newest).
    const dayQueries = queries.filter((q) => typeof q.from === 'string' && q.from.startsWith(yesterday));
    expect(dayQueries.map((q) => q.from)).toEqual([at(0), new Date(Date.parse(at(284)) + 1).toISOString()]);
  });

  it('a read that raced a late reading shows it on the next read, once the ingest bumped the drop marker', async () => {
    // Yesterday is still an open day to the range reads (the last two days of a range are).
    const today = dayOf(new Date(Date.now() - 86_400_000).toISOString());
    const start = Date.parse(`${today}T00:00:00.000Z`);
    const at = (m: number) => new Date(start + m * 60_000).toISOString();
    const repo = dynamoReadingsRepository(doc, table);
    const minutes = 200;
    await repo.writeReadings(Array.from({ length: minutes }, (_, m) => m).filter((m) => m !== 5).map((m) => ({ deviceId: 'd1', reading: reading(at(m)), raw: '{}' })));

    // A reader whose query of the day runs before the late reading (minute 5) is stored and
    // dropped: what it keeps in memory lacks the reading.
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

    // The same reader's next read sees the marker's new generation and reads the day again.
    const fresh = await slow.readRangeColumns(['d1'], at(0), at(minutes));
    expect(fresh[0]?.t.length).toBe(minutes);
    const again = await slow.readRangeColumns(['d1'], at(0), at(minutes));
    expect(again[0]?.t.length).toBe(minutes);
    // Nothing but the marker is stored under P#: the reads wrote nothing.
    const marker = (await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P#d1' } }))).Items ?? [];
    expect(marker.map((m) => [m.gen, m.data, m.through])).toEqual([[1, undefined, undefined]]);
  });
});
