/**
 * How Lambda consumes the ingest stream, in AWS (cdk/lib/constructs/telemetry.ts) and in the local
 * stack's stand-in (local/stand-ins/kinesis-stream.ts) alike.
 */
export const INGEST_STREAM = {
  /** Records per invocation at most: a busy shard's backlog in one batch, one commit per device. */
  batchSize: 500,
  /** Retries of a failed batch (from its first failed record) before it goes to the on-failure destination. */
  retryAttempts: 5,
  /** Shards locally; in AWS the stream is on-demand and scales its shards itself. */
  localShards: 2,
} as const;
