import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import type { Logger } from '../lib/logger';
import { countMetric, METRIC } from '../lib/metrics';
import type { IngestCounters } from '../ports/fleet';
import type { makeIngest } from './ingest';

/**
 * The ingest stream's consumer (cdk/lib/constructs/telemetry.ts): the IoT topic rule puts every
 * device message on a Kinesis stream keyed by thing name, and Lambda hands this handler a batch
 * of records per shard, one device's records in order. A bad message is not an error: it is kept
 * in the rejected store and counts as done. A message that failed (DynamoDB unavailable, the
 * device's lock contended too long) is reported by sequence number; Lambda retries the batch
 * from the lowest one (the ones after it answer 'duplicate'), and after its retries the batch
 * goes to the on-failure destination, so a reading is never silently lost.
 */
export const makeStreamHandler =
  (ingest: Pick<ReturnType<typeof makeIngest>, 'batch'>, log: Logger, health?: { readonly counters: IngestCounters; readonly now: () => Date }) =>
  async (event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse> => {
    const records = event.Records;
    const arrived = health?.now();
    const results = await ingest.batch(records.map((r) => decodeRecord(r.kinesis.data)));
    const failed = records.filter((_, i) => results[i]?.ok !== true);
    // Failed records are not counted: Lambda retries them, and they count when they are done.
    const done = results.flatMap((r) => (r.ok ? [r.outcome.status] : []));
    countMetric(METRIC.readingsRejected, done.filter((s) => s === 'rejected').length);
    countMetric(METRIC.messagesIngested, done.filter((s) => s !== 'rejected').length);
    for (const [i, r] of records.entries()) {
      const result = results[i];
      if (result && !result.ok) log.error('ingest failed', { sequenceNumber: r.kinesis.sequenceNumber, partitionKey: r.kinesis.partitionKey, err: result.error });
    }
    if (health && arrived && records.length) {
      // The operators' overview reads the ingest's health from here (decision 055). The batch is
      // done either way: a counter that could not be written is logged, never a retry of readings.
      const oldest = Math.min(...records.map((r) => r.kinesis.approximateArrivalTimestamp * 1000));
      const iteratorAgeMs = Number.isFinite(oldest) ? Math.max(0, arrived.getTime() - oldest) : null;
      await health.counters.recordBatch({ at: arrived, iteratorAgeMs, retried: failed.length }).catch((err: unknown) => log.warn('ingest counters not written', { err }));
    }
    return { batchItemFailures: failed.map((r) => ({ itemIdentifier: r.kinesis.sequenceNumber })) };
  };

/** A record's data is the rule's JSON (base64 in the event); anything else goes on as it is, to be rejected. */
const decodeRecord = (data: string): unknown => {
  const text = Buffer.from(data, 'base64').toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unreadable_record: text };
  }
};

