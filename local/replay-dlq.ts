/**
 * Re-driving the ingest's dead letters (`npm run replay-dlq`). The ingest stream's event source
 * gives a batch up after its retries and names it in the on-failure destination; the records stay
 * in the stream for 7 days. Locally the Kinesis stand-in's on-failure destination is a file,
 * `.local-data/ingest-dead-letters.jsonl`, one record a line ({ shard, partitionKey, data, … } as
 * the stream held it), written by local/start.ts. A re-drive puts each record back on the stream
 * with its partition key (the same shard, in the same order); the ingest is idempotent, so a
 * record re-driven twice, or one that had partly succeeded, changes nothing the second time.
 * AWS: scripts/replay-dlq.ts --aws (docs/architecture.md, "Alarms and re-drive").
 */

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
