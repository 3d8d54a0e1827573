/**
 * How Lambda consumes the ingest stream, in AWS (cdk/lib/constructs/telemetry.ts) and in the local
 * stack's stand-in (local/stand-ins/kinesis-stream.ts) alike.
 */
export const INGEST_STREAM = {
  /**
   * Records per invocation at most: a busy shard's backlog in one batch, one commit (and one
   * alert-engine step) per device. Lambda also caps a batch at its 6 MB invocation payload
   * (about 3,000 of these records); 2,000 halves the commits per reading against 500 and keeps a
   * batch within a few seconds of the 60 s timeout (issue 14).
   */
  batchSize: 2_000,
  /** Retries of a failed batch (from its first failed record) before it goes to the on-failure destination. */
  retryAttempts: 5,
  /** Shards locally; in AWS the stream is on-demand and scales its shards itself. */
  localShards: 2,
} as const;
