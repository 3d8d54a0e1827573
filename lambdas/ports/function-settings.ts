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
   * per-device requests per reading on a backlog. At that size a batch still takes a few
   * seconds of the 60 s timeout. A quiet stream's batches stay small: Lambda invokes with what is waiting.
   */
  batchSize: 10_000,
  /** Retries of a failed batch (from its first failed record) before it goes to the on-failure destination. */
  retryAttempts: 5,
  /** Shards locally; in AWS the stream is on-demand and scales its shards itself. */
  localShards: 2,
} as const;

/**
 * The ingest function's runtime, in AWS (the function's memory and NODE_OPTIONS) and in the local
 * stack's containers (worker threads' resource limits) alike.
 */
export const INGEST_FUNCTION = {
  /**
   * V8's semi-space (the young generation is two of them and a large-object space as big: three
   * times this). A batch of a few thousand messages lives for its whole processing, so with the
   * default 16 MB most of it outlived two scavenges and was promoted, and the old generation's
   * marking and compaction kept V8's helper threads busy. At 64 MB (`bench/ingest-only.ts`,
   * per-thread CPU over 40,000 messages) the helper threads used 1.8-2.1 s instead of 2.5-2.6 s and
   * the two containers 3.6 s instead of 3.8-4.0 s, about 6 % of the whole stack's CPU, and the
   * timed messages were all processed in 8.0-8.2 s instead of 8.8-8.9 s.
   */
  semiSpaceMb: 64,
  /** Room for that young generation beside a 6 MB batch's parsed records and the SDK (512 MB, the default, leaves too little). */
  memoryMb: 1024,
} as const;

/**
 * The installer function's timeout (cdk/lib/constructs/api.ts): a new install is about a dozen
 * IoT and table calls, each retried by the SDK under throttling, so well past the default 10 s;
 * under the HTTP API's 30 s integration limit, so the browser gets the function's own answer.
 */
export const INSTALLER_TIMEOUT_S = 28;

/** The header the web distribution adds to every request it passes to the API or the live socket (cdk/lib/constructs/api-edge.ts, live.ts). */
export const ORIGIN_HEADER = 'x-vatman-origin-verify';
