import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { rowsOf } from '../../shared/telemetry/reading-columns';
import { dayOf } from '../../shared/time/utc';
import { startReadingsTable } from '../support/readings-table';
import { reading } from '../support/reading-series';

/**
 * The range read's decoded buckets: a bucket already decoded is asked for its head
 * only; one recompacted since (a late reading) must be read whole again, never served stale.
 */
let dynamo: DynamoStandIn;
let doc: DynamoDBDocumentClient;
let table: string;
let received = 0;

beforeAll(async () => {
  ({ dynamo, doc, table } = await startReadingsTable('decoded'));
  doc.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      received += Number((out.response as { headers?: Record<string, string> }).headers?.['content-length'] ?? 0);
      return out;
    },
    { step: 'deserialize', name: 'testCountBytes' },
  );
});
afterAll(async () => dynamo?.stop());

describe('decoded buckets of a range read', () => {
  it('a warm read fetches heads only and gives the same range; a recompacted day is read again with its late reading', async () => {
    const repo = dynamoReadingsRepository(doc, table);
    const first = Date.parse(`${dayOf(new Date(Date.now() - 6 * 86_400_000).toISOString())}T00:00:00.000Z`);
    const at = (m: number) => new Date(first + m * 60_000).toISOString();
    const minutes = 3 * 1440;
    const late = 1440 + 600; // the second day, 10:00
    const write = (ms: number[]) => repo.writeReadings(ms.map((m) => ({ deviceId: 'd1', reading: reading(at(m), { temp1: 4 + (m % 7) / 10 }), raw: '{}' })));
    await write(Array.from({ length: minutes }, (_, m) => m).filter((m) => m !== late));
    for (const d of [0, 1, 2]) await repo.compactDay('d1', dayOf(at(d * 1440)));

    const from = at(0);
    const to = at(minutes - 1);
    received = 0;
    const cold = rowsOf((await repo.readRangeColumns(['d1'], from, to))[0]!);
    const coldBytes = received;
    expect(cold).toHaveLength(minutes - 1);

    received = 0;
    const warm = rowsOf((await repo.readRangeColumns(['d1'], from, to))[0]!);
    expect(warm).toEqual(cold);
    expect(received).toBeLessThan(coldBytes / 5);

    // The late reading arrives and its day is compacted again (the bucket's count grows).
    await write([late]);
    await repo.compactDay('d1', dayOf(at(late)));
    const after = rowsOf((await repo.readRangeColumns(['d1'], from, to))[0]!);
    expect(after).toHaveLength(minutes);
    expect(after.find((r) => r.published_at === at(late))).toMatchObject({ temp1: 4 + (late % 7) / 10 });
  });
});
