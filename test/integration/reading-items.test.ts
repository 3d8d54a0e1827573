import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingsKeys } from '../../lambdas/adapters/dynamodb/keys';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { readingKey } from '../../shared/telemetry/reading';
import { syntheticReading } from '../support/reading-series';
import { startReadingsTable } from '../support/readings-table';

/**
 * Reading items of both versions (shared/telemetry/reading-item.ts) in one day: the version 1
 * items written before's compact item (one attribute a field, with device_id) and the
 * compact ones the ingest writes now are read alike by every read path, on dynalite with the SDK.
 */
let dynamo: DynamoStandIn;
let doc: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  ({ dynamo, doc, table } = await startReadingsTable('items'));
});
afterAll(async () => dynamo?.stop());

describe('reading items, version 1 and 2', () => {
  it('range reads, the duplicate check, the raw archive, compaction and the latest reading see both alike', async () => {
    const repo = dynamoReadingsRepository(doc, table);
    const day = '2026-11-20';
    const start = Date.parse(`${day}T00:00:00.000Z`);
    const readings = Array.from({ length: 60 }, (_, i) => syntheticReading(start + i * 60_000, i));
    const rawOf = (i: number) => JSON.stringify({ n: i });
    // Even minutes as version 1 items (as written before), odd ones through the repository.
    const old = readings.flatMap((r, i) => (i % 2 === 0 ? [{ PutRequest: { Item: { ...readingsKeys.reading('d1', r.published_at), ...r, device_id: 'd1', raw: rawOf(i), expires_at: 1 } } }] : []));
    for (let i = 0; i < old.length; i += 25) await doc.send(new BatchWriteCommand({ RequestItems: { [table]: old.slice(i, i + 25) } }));
    await repo.writeReadings(readings.flatMap((r, i) => (i % 2 === 1 ? [{ deviceId: 'd1', reading: r, raw: rawOf(i) }] : [])));
    const odd = readings[1];
    if (!odd) throw new Error('no reading');
    const stored = (await doc.send(new GetCommand({ TableName: table, Key: readingsKeys.reading('d1', odd.published_at) }))).Item ?? {};
    expect(Object.keys(stored).sort()).toEqual(['expires_at', 'pk', 'raw', 'sk', 'v']);

    const from = readings[0]?.published_at as string;
    const to = readings[59]?.published_at as string;
    expect(await repo.readPartitions('d1', from, to)).toEqual(readings);
    expect(await repo.readRange('d1', from, to)).toEqual(readings);
    const found = await repo.getReadings(readings.map((r) => ({ deviceId: 'd1', publishedAt: r.published_at })));
    expect(readings.map((r) => found.get(readingKey('d1', r.published_at)))).toEqual(readings);
    expect(await repo.listRaw('d1', day)).toEqual(readings.map((r, i) => ({ published_at: r.published_at, raw: rawOf(i) })));
    expect(await repo.listRawBetween('d1', from, to)).toEqual(readings.map((r, i) => ({ published_at: r.published_at, raw: rawOf(i) })));
    expect(await repo.getRaw('d1', odd.published_at)).toBe(rawOf(1));
    expect(await repo.latestReading('d1', `${day}T23:00:00.000Z`)).toEqual(readings[59]);
    // The same reading again is a duplicate, another one at the instant a conflict, whichever version is stored.
    expect(await repo.putReading('d1', readings[0] as never, '{}')).toBe('duplicate');
    expect(await repo.putReading('d1', odd, '{}')).toBe('duplicate');
    expect(await repo.putReading('d1', { ...odd, temp1: 9 }, '{}')).toBe('conflict');

    await repo.compactDay('d1', day);
    expect(await repo.readRange('d1', from, to)).toEqual(readings);
    const [columns] = await repo.readRangeColumns(['d1'], from, to);
    expect(columns?.t).toEqual(readings.map((r) => Date.parse(r.published_at)));
    expect(columns?.cols.temp1).toEqual(readings.map((r) => r.temp1));
  });

  it('the duplicate check finds exactly the stored instants asked, by span or by key, however crowded the span', async () => {
    const sent: string[] = [];
    const spy = new Proxy(doc, { get: (target, prop, receiver) => (prop === 'send' ? (command: { constructor: { name: string } }) => (sent.push(command.constructor.name), target.send(command as never)) : Reflect.get(target, prop, receiver)) });
    const repo = dynamoReadingsRepository(spy, table);
    // Readings every 10 s over an hour across midnight (two day partitions), stored.
    const start = Date.parse('2026-11-21T23:30:00.000Z');
    const stored = Array.from({ length: 360 }, (_, i) => syntheticReading(start + i * 10_000, i));
    await repo.writeReadings(stored.map((r, i) => ({ deviceId: 'd2', reading: r, raw: String(i) })));
    const at = (i: number) => stored[i]?.published_at as string;
    const keyOf = (publishedAt: string) => readingKey('d2', publishedAt);
    // A minute apart in each day (dense: asked by one Query a day, whose page of three times the
    // asked instants ends before the crowded span does, so the rest is asked by key), and three
    // instants never stored.
    const everyMinute = stored.map((r) => r.published_at).filter((_, i) => i % 6 === 0);
    const never = ['2026-11-21T23:45:05.000Z', '2026-11-22T00:10:05.000Z', '2026-11-22T00:29:55.000Z'];
    sent.length = 0;
    const found = await repo.getReadings([...everyMinute, ...never].map((publishedAt) => ({ deviceId: 'd2', publishedAt })));
    expect(found).toEqual(new Map(everyMinute.map((t, j) => [keyOf(t), stored[j * 6]])));
    expect(sent.filter((c) => c === 'QueryCommand')).toHaveLength(2);
    expect(sent).toContain('BatchGetCommand');
    // A few instants far apart: asked by key.
    sent.length = 0;
    const sparse = [at(7), at(200), '2026-11-22T20:00:00.000Z'];
    expect(await repo.getReadings(sparse.map((publishedAt) => ({ deviceId: 'd2', publishedAt })))).toEqual(new Map([[keyOf(at(7)), stored[7]], [keyOf(at(200)), stored[200]]]));
    expect(sent).toEqual(['BatchGetCommand']);
    // Another device's instants are not this one's.
    expect((await repo.getReadings(everyMinute.map((publishedAt) => ({ deviceId: 'd3', publishedAt })))).size).toBe(0);
  });
});
