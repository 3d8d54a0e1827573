import type { KinesisStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { startKinesisStream } from './stand-ins/kinesis-stream';
import { deadLetterLines, deadLetterRecords, redrive, redriveAws, type AwsCli } from './replay-dlq';

describe('npm run replay-dlq against the Kinesis stand-in', () => {
  it('re-drives the batches the stream gave up on: every record consumed, each partition key in order', async () => {
    let failing = true;
    const consumed: string[] = [];
    let dead = '';
    const stream = startKinesisStream({
      streamName: 'replay',
      shards: 2,
      batchSize: 10,
      retryAttempts: 2,
      retryDelayMs: () => 1,
      consume: async (_shard, event: KinesisStreamEvent) => {
        if (failing) throw new Error('the ingest is down');
        for (const r of event.Records) consumed.push(Buffer.from(r.kinesis.data, 'base64').toString('utf8'));
      },
      onFailure: ({ shard, records }) => (dead += deadLetterLines(shard, records)),
    });
    const sent = Array.from({ length: 30 }, (_, i) => `vm-${i % 3}:${String(i).padStart(2, '0')}`);
    for (const s of sent) stream.put(s.split(':')[0] as string, Buffer.from(s));
    await stream.drained();
    expect(consumed).toEqual([]);
    const records = deadLetterRecords(dead);
    expect(records).toHaveLength(30);

    failing = false;
    expect(redrive(records, (key, data) => stream.put(key, data))).toBe(30);
    await stream.drained();
    await stream.stop();
    expect([...consumed].sort()).toEqual([...sent].sort());
    for (const key of ['vm-0', 'vm-1', 'vm-2']) expect(consumed.filter((c) => c.startsWith(key))).toEqual(sent.filter((s) => s.startsWith(key)));
  });

  it('refuses a line that is not a stream record, naming it', () => {
    expect(() => deadLetterRecords('{"partitionKey":"a","data":"eA=="}\n\n{"nope":1}\n')).toThrow('dead letter line 3');
  });
});

describe('the AWS re-drive (the AWS CLI played by a fake over an in-memory queue and stream)', () => {
  it('reads each dead-lettered batch again from the stream, puts it back, and deletes the message only then', async () => {
    const shard = Array.from({ length: 8 }, (_, i) => ({ SequenceNumber: String(100 + i), PartitionKey: `vm-${i % 2}`, Data: Buffer.from(`r${i}`).toString('base64') }));
    const queue = [
      { Body: JSON.stringify({ KinesisBatchInfo: { shardId: 'shardId-000000000000', startSequenceNumber: '102', endSequenceNumber: '104', batchSize: 3 } }), ReceiptHandle: 'h1' },
      { Body: JSON.stringify({ ruleName: 'IngestRule', topic: 'dts/vm-9/telemetry', base64OriginalPayload: Buffer.from('{"x":1}').toString('base64') }), ReceiptHandle: 'h2' },
    ];
    const put: { PartitionKey: string; Data: string }[] = [];
    const deleted: string[] = [];
    let refuseOnce = true;
    const arg = (a: readonly string[], name: string) => a[a.indexOf(name) + 1] as string;
    const aws: AwsCli = async (a) => {
      const op = `${a[0]} ${a[1]}`;
      if (op === 'sqs receive-message') return queue.length ? { Messages: queue.splice(0, 10) } : {};
      if (op === 'sqs delete-message') return void deleted.push(arg(a, '--receipt-handle'));
      if (op === 'kinesis get-shard-iterator') return { ShardIterator: `at:${arg(a, '--starting-sequence-number')}` };
      if (op === 'kinesis get-records') {
        const from = Number(arg(a, '--shard-iterator').split(':')[1]);
        const page = shard.filter((r) => Number(r.SequenceNumber) >= from).slice(0, 2);
        return { Records: page, NextShardIterator: `at:${from + 2}`, MillisBehindLatest: page.length ? 1 : 0 };
      }
      if (op === 'kinesis put-records') {
        const entries = JSON.parse(arg(a, '--records')) as { PartitionKey: string; Data: string }[];
        // Kinesis may refuse some records of a request (throughput): those are put again.
        const refused = refuseOnce ? 1 : -1;
        refuseOnce = false;
        entries.forEach((e, i) => i !== refused && put.push(e));
        return { Records: entries.map((_, i) => (i === refused ? { ErrorCode: 'ProvisionedThroughputExceededException' } : { SequenceNumber: '1' })) };
      }
      throw new Error(`unexpected aws ${a.join(' ')}`);
    };
    const n = await redriveAws(aws, { queueUrl: 'https://sqs/dlq', streamName: 'ingest' }, () => 1_700_000_000_000);
    expect(n).toBe(4);
    expect(put.map((p) => Buffer.from(p.Data, 'base64').toString('utf8')).slice(0, 3).sort()).toEqual(['r2', 'r3', 'r4']);
    expect(put.map((p) => p.PartitionKey).sort()).toEqual(['vm-0', 'vm-0', 'vm-1', 'vm-9']);
    expect(JSON.parse(Buffer.from(put[3]!.Data, 'base64').toString('utf8'))).toEqual({ payload: Buffer.from('{"x":1}').toString('base64'), topic: 'dts/vm-9/telemetry', received_at: 1_700_000_000_000 });
    expect(deleted).toEqual(['h1', 'h2']);
  });
});
