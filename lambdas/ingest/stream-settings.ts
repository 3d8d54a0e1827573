/**
 * How Lambda consumes the ingest stream, in AWS (cdk/lib/constructs/telemetry.ts) and in the local
 * stack's stand-in (local/stand-ins/kinesis-stream.ts) alike.
 */
export const INGEST_STREAM = {
  /**
   * Records per invocation at most: Kinesis's largest, so a busy shard's backlog goes in as few
   * batches as Lambda allows, one commit, duplicate check and alert-engine step per device each.
   * Lambda also stops a batch at its 6 MB invocation payload, which for device messages is about
   * 4,700 records (the local stand-in stops it there too): against batches of 2,000, half the
   * per-device requests per reading on a backlog (issue 14). At that size a batch still takes a few
   * seconds of the 60 s timeout. A quiet stream's batches stay small: Lambda invokes with what is waiting.
   */
  batchSize: 10_000,
  /** Retries of a failed batch (from its first failed record) before it goes to the on-failure destination. */
  retryAttempts: 5,
  /** Shards locally; in AWS the stream is on-demand and scales its shards itself. */
  localShards: 2,
} as const;
