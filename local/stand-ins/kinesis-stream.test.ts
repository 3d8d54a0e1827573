import type { KinesisStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { startKinesisStream } from './kinesis-stream';

const decode = (event: KinesisStreamEvent) => event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString('utf8'));

describe('the Kinesis stand-in', () => {
  it('hands one key\'s records to one shard in order, in batches of what is waiting up to the batch size', async () => {
    const seen: { shard: number; data: string[] }[] = [];
    const stream = startKinesisStream({
      streamName: 's',
      shards: 2,
      batchSize: 3,
      retryAttempts: 0,
      consume: async (shard, event) => {
        seen.push({ shard, data: decode(event) });
        await new Promise((r) => setTimeout(r, 5));
        return { batchItemFailures: [] };
      },
      onFailure: () => expect.fail('no failure expected'),
    });
    for (let i = 0; i < 10; i += 1) for (const key of ['a', 'b', 'c', 'd']) stream.put(key, Buffer.from(`${key}${i}`));
    await stream.drained();
    const all = seen.flatMap((s) => s.data);
    expect(all).toHaveLength(40);
    expect(Math.max(...seen.map((s) => s.data.length))).toBe(3);
    for (const key of ['a', 'b', 'c', 'd']) {
      expect(all.filter((d) => d.startsWith(key))).toEqual(Array.from({ length: 10 }, (_, i) => `${key}${i}`));
      expect(new Set(seen.filter((s) => s.data.some((d) => d.startsWith(key))).map((s) => s.shard)).size).toBe(1);
    }
  });

  it('stops a batch where its event would pass the invocation payload limit, as Lambda does (at least one record)', async () => {
    const events: KinesisStreamEvent[] = [];
    const payloadLimit = 20_000;
    const stream = startKinesisStream({
      streamName: 's',
      shards: 1,
      batchSize: 10_000,
      payloadLimit,
      retryAttempts: 0,
      consume: async (_shard, event) => {
        events.push(event);
        return { batchItemFailures: [] };
      },
      onFailure: () => expect.fail('no failure expected'),
    });
    for (let i = 0; i < 60; i += 1) stream.put(`thing-${i % 3}`, Buffer.from(`${i}:`.padEnd(700 + (i % 7) * 40, 'x')));
    stream.put('thing-big', Buffer.alloc(30_000, 'y'));
    await stream.drained();
    expect(events.flatMap((e) => e.Records)).toHaveLength(61);
    for (const [i, event] of events.entries()) {
      const size = JSON.stringify(event).length;
      if (event.Records.length > 1) expect(size).toBeLessThanOrEqual(payloadLimit);
      // As many as fit: the next batch's first record would not have.
      const next = events[i + 1]?.Records[0];
      if (next) expect(JSON.stringify({ Records: [...event.Records, next] }).length).toBeGreaterThan(payloadLimit);
    }
    expect(events.length).toBeGreaterThan(3);
    expect(events.at(-1)?.Records).toHaveLength(1);
  });

  it('retries from the first failed record, then hands the rest of the batch to onFailure', async () => {
    const batches: string[][] = [];
    const failures: string[][] = [];
    const stream = startKinesisStream({
      streamName: 's',
      shards: 1,
      batchSize: 10,
      retryAttempts: 2,
      retryDelayMs: () => 1,
      consume: async (_shard, event) => {
        batches.push(decode(event));
        return { batchItemFailures: event.Records.filter((r) => Buffer.from(r.kinesis.data, 'base64').toString() === 'x2').map((r) => ({ itemIdentifier: r.kinesis.sequenceNumber })) };
      },
      onFailure: ({ records }) => failures.push(records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString())),
    });
    for (const d of ['x0', 'x1', 'x2', 'x3']) stream.put('k', Buffer.from(d));
    await stream.drained();
    expect(batches[0]).toEqual(['x0', 'x1', 'x2', 'x3']);
    // The retries start at the failed record.
    expect(batches.slice(1)).toEqual([
      ['x2', 'x3'],
      ['x2', 'x3'],
    ]);
    expect(failures).toEqual([['x2', 'x3']]);
    // The shard moves on afterwards.
    stream.put('k', Buffer.from('x4'));
    await stream.drained();
    expect(batches.at(-1)).toEqual(['x4']);
  });

  it('retries a batch that throws as a whole', async () => {
    let calls = 0;
    const stream = startKinesisStream({
      streamName: 's',
      shards: 1,
      batchSize: 10,
      retryAttempts: 3,
      retryDelayMs: () => 1,
      consume: async () => {
        calls += 1;
        if (calls < 3) throw new Error('DynamoDB unavailable');
        return undefined;
      },
      onFailure: () => expect.fail('the third attempt succeeds'),
    });
    stream.put('k', Buffer.from('y'));
    await stream.drained();
    expect(calls).toBe(3);
  });
});
