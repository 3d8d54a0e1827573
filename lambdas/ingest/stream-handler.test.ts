import type { KinesisStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger';
import type { BatchResult } from './ingest';
import { makeStreamHandler } from './stream-handler';

const record = (seq: string, data: string) =>
  ({ kinesis: { sequenceNumber: seq, partitionKey: 'vm-1', data: Buffer.from(data).toString('base64') } }) as KinesisStreamEvent['Records'][number];

describe('the ingest stream handler', () => {
  it('hands the rule events to the ingest in order and reports the failed ones by sequence number', async () => {
    const given: unknown[][] = [];
    const results: BatchResult[] = [
      { ok: true, outcome: { status: 'stored' } },
      { ok: false, error: new Error('contended') },
      { ok: true, outcome: { status: 'rejected', reason: 'payload is not valid JSON' } },
    ];
    const handler = makeStreamHandler({ batch: async (inputs) => (given.push([...inputs]), results) }, createLogger({}, 'error'));
    const event = { Records: [record('1', '{"topic":"dts/vm-1/telemetry"}'), record('2', '{"topic":"x"}'), record('3', 'not json')] };
    const response = await handler(event);
    expect(given).toEqual([[{ topic: 'dts/vm-1/telemetry' }, { topic: 'x' }, { unreadable_record: 'not json' }]]);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
  });
});
