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

  it("records each batch for the operators' overview: when, its oldest record's age on arrival, and how many go back for a retry", async () => {
    const recorded: unknown[] = [];
    const at = new Date('2026-03-01T10:00:05.000Z');
    const results: BatchResult[] = [{ ok: false, error: new Error('contended') }, { ok: true, outcome: { status: 'stored' } }];
    const counters = { recordBatch: async (b: unknown) => void recorded.push(b) };
    const handler = makeStreamHandler({ batch: async () => results }, createLogger({}, 'error'), { counters, now: () => at });
    const arrived = (seq: string, ms: number) => ({ ...record(seq, '{}'), kinesis: { ...record(seq, '{}').kinesis, approximateArrivalTimestamp: ms / 1000 } }) as KinesisStreamEvent['Records'][number];
    await handler({ Records: [arrived('1', at.getTime() - 3_000), arrived('2', at.getTime() - 1_000)] });
    expect(recorded).toEqual([{ at, iteratorAgeMs: 3_000, retried: 1 }]);
  });

  it('answers the batch even when its counter cannot be written', async () => {
    const counters = { recordBatch: async () => Promise.reject(new Error('throttled')) };
    const handler = makeStreamHandler({ batch: async () => [{ ok: true, outcome: { status: 'stored' } }] }, createLogger({}, 'error'), { counters, now: () => new Date() });
    expect(await handler({ Records: [record('1', '{}')] })).toEqual({ batchItemFailures: [] });
  });
});
