/**
 * Re-driving the ingest's dead letters (`npm run replay-dlq`). The ingest stream's event source
 * gives a batch up after its retries and names it in the on-failure destination; the records stay
 * in the stream for 7 days. Locally the Kinesis stand-in's on-failure destination is a file,
 * `.data/ingest-dead-letters.jsonl`, one record a line ({ shard, partitionKey, data, … } as
 * the stream held it), written by local/start.ts. A re-drive puts each record back on the stream
 * with its partition key (the same shard, in the same order); the ingest is idempotent, so a
 * record re-driven twice, or one that had partly succeeded, changes nothing the second time.
 * AWS: `npm run replay-dlq -- --aws` (redriveAws below; docs/architecture.md, "Alarms and re-drive").
 */

import type { KinesisStreamRecord } from 'aws-lambda';

/** The local on-failure destination's lines for a batch given up: one record a line, as the stream held it. */
export const deadLetterLines = (shard: number, records: readonly KinesisStreamRecord[]): string => records.map((r) => `${JSON.stringify({ shard, ...r.kinesis })}\n`).join('');

/**
 * The message Lambda's on-failure destination puts on the dead-letter queue for a Kinesis batch it
 * gave up: which records (shard and sequence numbers), not the records themselves.
 */
export const onFailureRecord = (shard: number, records: readonly KinesisStreamRecord[], error: unknown): string => {
  const first = records[0]?.kinesis;
  const last = records.at(-1)?.kinesis;
  return JSON.stringify({
    requestContext: { requestId: crypto.randomUUID(), condition: 'RetryAttemptsExhausted', approximateInvokeCount: 1 },
    responseContext: { statusCode: 200, functionError: 'Unhandled', errorMessage: error instanceof Error ? error.message : String(error) },
    version: '1.0',
    timestamp: new Date().toISOString(),
    KinesisBatchInfo: {
      shardId: `shardId-${String(shard).padStart(12, '0')}`,
      startSequenceNumber: first?.sequenceNumber,
      endSequenceNumber: last?.sequenceNumber,
      approximateArrivalOfFirstRecord: first ? new Date(first.approximateArrivalTimestamp * 1000).toISOString() : undefined,
      approximateArrivalOfLastRecord: last ? new Date(last.approximateArrivalTimestamp * 1000).toISOString() : undefined,
      batchSize: records.length,
    },
  });
};

export interface DeadRecord {
  readonly partitionKey: string;
  readonly data: Buffer;
}

/** The records of a dead-letter file (blank lines skipped; a line that is not a record is an error, with its number). */
export const deadLetterRecords = (text: string): DeadRecord[] =>
  text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const parsed = JSON.parse(line) as { partitionKey?: unknown; data?: unknown };
    if (typeof parsed.partitionKey !== 'string' || typeof parsed.data !== 'string') throw new Error(`dead letter line ${i + 1}: not a stream record (partitionKey and base64 data)`);
    return [{ partitionKey: parsed.partitionKey, data: Buffer.from(parsed.data, 'base64') }];
  });

/** Puts the records back on the stream in order; returns how many. */
export const redrive = (records: readonly DeadRecord[], put: (partitionKey: string, data: Buffer) => void): number => {
  for (const r of records) put(r.partitionKey, r.data);
  return records.length;
};

/** Runs the AWS CLI with these arguments and returns its JSON output (undefined when it printed nothing). */
export type AwsCli = (args: readonly string[]) => Promise<unknown>;

interface BatchInfo {
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
}
interface SqsMessage {
  readonly Body: string;
  readonly ReceiptHandle: string;
}

/** Most get-records pages one batch may take (a batch is at most 500 records; pages may be empty). */
const MAX_PAGES = 200;
const PUT_RECORDS_MAX = 500;

/** The records of a dead-lettered batch, read again from the stream (its 7 days' retention). */
const readBatch = async (aws: AwsCli, streamName: string, info: BatchInfo): Promise<DeadRecord[]> => {
  const end = BigInt(info.endSequenceNumber);
  const start = (await aws(['kinesis', 'get-shard-iterator', '--stream-name', streamName, '--shard-id', info.shardId, '--shard-iterator-type', 'AT_SEQUENCE_NUMBER', '--starting-sequence-number', info.startSequenceNumber])) as { ShardIterator?: string };
  let iterator = start.ShardIterator;
  const out: DeadRecord[] = [];
  for (let page = 0; iterator && page < MAX_PAGES; page += 1) {
    const res = (await aws(['kinesis', 'get-records', '--shard-iterator', iterator, '--limit', '1000'])) as {
      Records?: { SequenceNumber: string; Data: string; PartitionKey: string }[];
      NextShardIterator?: string;
      MillisBehindLatest?: number;
    };
    for (const r of res.Records ?? []) {
      if (BigInt(r.SequenceNumber) > end) return out;
      out.push({ partitionKey: r.PartitionKey, data: Buffer.from(r.Data, 'base64') });
    }
    if ((res.Records ?? []).length === 0 && res.MillisBehindLatest === 0) break;
    iterator = res.NextShardIterator;
  }
  if (out.length === 0) throw new Error(`batch ${info.shardId} ${info.startSequenceNumber}-${info.endSequenceNumber}: no records left in the stream (older than its retention?)`);
  return out;
};

/** What the IoT rule's error action put in the queue: the message itself, as the rule would have put it on the stream. */
const fromRuleError = (body: { topic?: unknown; base64OriginalPayload?: unknown }, now: number): DeadRecord[] => {
  if (typeof body.topic !== 'string' || typeof body.base64OriginalPayload !== 'string') throw new Error('a dead letter that is neither a stream batch nor an IoT rule error');
  const event = { payload: body.base64OriginalPayload, topic: body.topic, received_at: now };
  return [{ partitionKey: body.topic.split('/')[1] ?? body.topic, data: Buffer.from(JSON.stringify(event)) }];
};

const putRecords = async (aws: AwsCli, streamName: string, records: readonly DeadRecord[]) => {
  for (let i = 0; i < records.length; i += PUT_RECORDS_MAX) {
    let pending = records.slice(i, i + PUT_RECORDS_MAX);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= 5) throw new Error(`put-records: ${pending.length} records still refused`);
      const entries = pending.map((r) => ({ Data: r.data.toString('base64'), PartitionKey: r.partitionKey }));
      const res = (await aws(['kinesis', 'put-records', '--stream-name', streamName, '--records', JSON.stringify(entries)])) as { Records?: { ErrorCode?: string }[] };
      const sent = pending;
      pending = sent.filter((_, j) => res.Records?.[j]?.ErrorCode !== undefined);
    }
  }
};

/**
 * The re-drive in AWS: each message of the ingest dead-letter queue names a failed batch (the
 * event source's on-failure record: shard and sequence numbers) or holds a message IoT could not
 * put on the stream (the rule's error action). The batch's records are read again from the stream
 * and put back on it (same partition keys, so the same shard and order); a message is deleted
 * from the queue only once its records are back on the stream. Returns the records re-driven.
 */
export const redriveAws = async (aws: AwsCli, target: { readonly queueUrl: string; readonly streamName: string }, now: () => number = Date.now): Promise<number> => {
  let total = 0;
  for (;;) {
    const res = (await aws(['sqs', 'receive-message', '--queue-url', target.queueUrl, '--max-number-of-messages', '10', '--visibility-timeout', '300', '--wait-time-seconds', '1'])) as { Messages?: SqsMessage[] } | undefined;
    const messages = res?.Messages ?? [];
    if (messages.length === 0) return total;
    for (const m of messages) {
      const body = JSON.parse(m.Body) as { KinesisBatchInfo?: BatchInfo; topic?: unknown; base64OriginalPayload?: unknown };
      const records = body.KinesisBatchInfo ? await readBatch(aws, target.streamName, body.KinesisBatchInfo) : fromRuleError(body, now());
      await putRecords(aws, target.streamName, records);
      await aws(['sqs', 'delete-message', '--queue-url', target.queueUrl, '--receipt-handle', m.ReceiptHandle]);
      total += records.length;
    }
  }
};
