import { createHash } from 'node:crypto';
import type { KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';

/**
 * Kinesis Data Streams with a Lambda event source mapping, as the ingest uses them in AWS
 * (cdk/lib/constructs/telemetry.ts): records are put with a partition key, which picks the shard
 * (MD5 of the key, as Kinesis does); each shard hands its records to the consumer in order, one
 * batch at a time, as many as are waiting up to `batchSize` and, as Lambda does, no more than fit
 * its 6 MB invocation payload (`payloadLimit`, the event's JSON). A batch that throws is retried
 * whole; one that reports item failures is retried from the lowest failed sequence number. After
 * `retryAttempts` retries the rest of the batch goes to `onFailure` and the shard moves on.
 *
 * Unlike AWS, an idle shard is not polled once a second: a record is handed on as soon as the
 * shard is free, which only makes the local stack quicker.
 */
interface KinesisStandIn {
  put(partitionKey: string, data: Buffer): void;
  /** Resolves when every shard is empty and idle. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

interface KinesisStandInOptions {
  readonly streamName: string;
  readonly shards: number;
  readonly batchSize: number;
  readonly retryAttempts: number;
  /** The consumer of one shard's batch: shard i is always consumed by the same container. */
  readonly consume: (shard: number, event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse | undefined | void>;
  readonly onFailure: (failure: { readonly shard: number; readonly records: readonly KinesisStreamRecord[]; readonly error: unknown }) => void;
  /** The most JSON a batch's event may be: Lambda's synchronous invocation payload limit. @default 6 MB */
  readonly payloadLimit?: number;
  /** Wait before retry n (1-based); @default 100 ms × 2^(n-1) */
  readonly retryDelayMs?: (attempt: number) => number;
}

const REGION = 'us-east-1';
/** Lambda's payload limit for a synchronous invocation, which caps an event source mapping's batch. */
const LAMBDA_PAYLOAD_LIMIT = 6 * 1024 * 1024;

/** A record waiting in its shard, as it was put. */
interface Waiting {
  readonly partitionKey: string;
  readonly sequenceNumber: string;
  readonly data: Buffer;
  readonly arrivedAt: number;
}

export const startKinesisStream = (options: KinesisStandInOptions): KinesisStandIn => {
  const arn = `arn:aws:kinesis:${REGION}:000000000000:stream/${options.streamName}`;
  const delay = options.retryDelayMs ?? ((n: number) => 100 * 2 ** (n - 1));
  let sequence = 0n;
  let stopped = false;
  // A waiting record is kept as put (its data a Buffer, outside the JS heap) and made into the
  // event's record when its batch is taken: a backlog of thousands of records then costs the
  // garbage collector little each time it runs. The records handed on are the same.
  const shards = Array.from({ length: options.shards }, () => ({ buffer: [] as Waiting[], busy: false, attempts: 0 }));
  /** A partition key's shard (MD5 of the key, as Kinesis does), computed once per key. */
  const shardOfKey = new Map<string, number>();
  const recordOf = (w: Waiting, index: number): KinesisStreamRecord => {
    const shardId = `shardId-${String(index).padStart(12, '0')}`;
    return {
      kinesis: {
        kinesisSchemaVersion: '1.0',
        partitionKey: w.partitionKey,
        sequenceNumber: w.sequenceNumber,
        data: w.data.toString('base64'),
        approximateArrivalTimestamp: w.arrivedAt / 1000,
      },
      eventSource: 'aws:kinesis',
      eventVersion: '1.0',
      eventID: `${shardId}:${w.sequenceNumber}`,
      eventName: 'aws:kinesis:record',
      invokeIdentityArn: `arn:aws:iam::000000000000:role/ingest`,
      awsRegion: REGION,
      eventSourceARN: arn,
    };
  };
  // A record's size in the event's JSON: a record with an empty key and data, plus its key and
  // its data in base64 (thing names need no escaping), and the comma between records.
  const recordOverhead = JSON.stringify(recordOf({ partitionKey: '', sequenceNumber: '0'.repeat(56), data: Buffer.alloc(0), arrivedAt: Date.now() }, 0)).length + 1;
  const payloadLimit = options.payloadLimit ?? LAMBDA_PAYLOAD_LIMIT;
  /** How many of a shard's waiting records the next batch takes: up to batchSize, within the payload limit (at least one). */
  const batchLength = (buffer: readonly Waiting[]) => {
    let bytes = '{"Records":[]}'.length;
    let count = 0;
    for (const w of buffer) {
      if (count >= options.batchSize) break;
      bytes += recordOverhead + w.partitionKey.length + 4 * Math.ceil(w.data.length / 3);
      if (count > 0 && bytes > payloadLimit) break;
      count += 1;
    }
    return count;
  };
  const idleWaiters: (() => void)[] = [];

  const allIdle = () => shards.every((s) => !s.busy && s.buffer.length === 0);
  const settleIdle = () => {
    if (!allIdle()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const pump = (index: number): void => {
    const shard = shards[index];
    if (!shard || stopped || shard.busy || shard.buffer.length === 0) return settleIdle();
    shard.busy = true;
    const batch = shard.buffer.slice(0, batchLength(shard.buffer)).map((w) => recordOf(w, index));
    const done = (count: number) => {
      shard.buffer.splice(0, count);
      shard.attempts = 0;
    };
    const retryOrGiveUp = async (from: number, error: unknown) => {
      const attempts = shard.attempts + 1;
      if (attempts > options.retryAttempts) {
        options.onFailure({ shard: index, records: batch.slice(from), error });
        done(batch.length);
        return;
      }
      // The records before the first failure are done; the retry starts at it.
      shard.buffer.splice(0, from);
      shard.attempts = attempts;
      await new Promise((r) => setTimeout(r, delay(attempts)));
    };
    void (async () => {
      try {
        const response = await options.consume(index, { Records: batch });
        const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        const firstFailed = batch.findIndex((r) => failed.has(r.kinesis.sequenceNumber));
        if (firstFailed < 0) done(batch.length);
        else await retryOrGiveUp(firstFailed, new Error(`${failed.size} records reported failed`));
      } catch (err) {
        await retryOrGiveUp(0, err);
      } finally {
        shard.busy = false;
        pump(index);
      }
    })();
  };

  return {
    put(partitionKey, data) {
      if (stopped) throw new Error(`stream ${options.streamName} is stopped`);
      let index = shardOfKey.get(partitionKey);
      if (index === undefined) {
        index = createHash('md5').update(partitionKey).digest().readUInt32BE(0) % shards.length;
        shardOfKey.set(partitionKey, index);
      }
      sequence += 1n;
      shards[index]?.buffer.push({ partitionKey, sequenceNumber: sequence.toString().padStart(56, '0'), data, arrivedAt: Date.now() });
      // On the next turn: the records put in this one go in the same batch.
      setImmediate(() => pump(index));
    },
    drained: () => (allIdle() ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    stop: async () => {
      stopped = true;
      settleIdle();
      for (const resolve of idleWaiters.splice(0)) resolve();
    },
  };
};
