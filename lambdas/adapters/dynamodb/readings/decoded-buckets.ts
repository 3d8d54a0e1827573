import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { columnsFromDay, type ReadingColumns } from '../../../../shared/telemetry/reading-columns';
import { batchGet, type Item, type Key } from '../query';
import { readBucket } from './bucket-data';

/**
 * Decoded buckets kept per repository (about 250-400 KB each, so at most about 80 MB of a 512 MB
 * function): a 30-day range of 6 vats (6 × (31 days + 2 partials)). It must hold a whole range, or
 * a range read in a loop evicts each bucket before it is asked for again (4 vats' 124 buckets
 * against the 120 kept before missed every time).
 */
const DECODED_BUCKETS = 200;
/** The attributes that name a bucket's content, and the partial's `through`: the decoded cache's check, a few bytes instead of the bucket's data. */
const BUCKET_HEAD = { ProjectionExpression: '#pk, #sk, #c, #g, #th', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#c': 'count', '#g': 'gen', '#th': 'through' } };

const bucketId = (item: Item) => `${String(item.pk)}|${String(item.sk)}`;

type Decoded = { readonly count: unknown; readonly gen: unknown; readonly columns: ReadingColumns };

/** The buckets one range read fetched: each by key, and its columns (decoded once). */
interface FetchedBuckets {
  get(key: { pk: string; sk: string }): Item | undefined;
  /** A fetched bucket's columns, marked most recently used in the cache. */
  columns(item: Item): ReadingColumns;
}

/** Day and partial buckets fetched by key, with their decoded columns cached across calls. */
interface DecodedBuckets {
  fetch(keys: readonly { pk: string; sk: string }[]): Promise<FetchedBuckets>;
  /** Evicts the least recently used beyond DECODED_BUCKETS (once a call is done with its buckets). */
  trim(): void;
}

export const decodedBuckets = (doc: DynamoDBDocumentClient, table: string): DecodedBuckets => {
  /**
   * Decoded buckets by `pk|sk`, most recently used last, with the count and generation that name
   * their content (a bucket never changes without its count growing or, a partial, its
   * generation): the dashboard asks for the same days again, and decoding (inflate and JSON.parse)
   * was the larger part of a warm 30-day call. Lives as long as the store (a Lambda container);
   * bounded by DECODED_BUCKETS (about 300 KB each).
   */
  const decoded = new Map<string, Decoded>();

  /** Bucket items by `pk|sk` into `found`; with `head`, only BUCKET_HEAD. */
  const fetch = (keys: readonly Key[], found: Map<string, Item>, head = false) =>
    batchGet(doc, table, keys, (item) => found.set(bucketId(item), item), head ? { projection: BUCKET_HEAD } : {});

  /**
   * Every (device, day) bucket of `keys` into a map by `pk|sk`, and the decoded columns of those
   * the cache holds unchanged (`pinned`, held for this call: another call may evict them from the
   * cache meanwhile). A bucket already decoded is asked for its head only, and its data again only
   * if the head changed: a warm 30-day call no longer fetches 1.3 MiB it does not decode. DynamoDB
   * bills a projected read as the whole item, so this costs the same read units.
   */
  const fetchBuckets = async (keys: readonly { pk: string; sk: string }[]) => {
    const known = keys.filter((key) => decoded.has(bucketId(key)));
    const found = new Map<string, Item>();
    await Promise.all([
      fetch(
        keys.filter((key) => !decoded.has(bucketId(key))),
        found,
      ),
      fetch(known, found, true),
    ]);
    // A bucket rewritten since it was decoded (a late reading, a newer partial) is read whole
    // again, its head forgotten first so that a bucket gone in between reads as absent.
    const pinned = new Map<string, ReadingColumns>();
    const changed: Key[] = [];
    for (const key of known) {
      const id = bucketId(key);
      const item = found.get(id);
      const hit = decoded.get(id);
      if (item === undefined || item.count === undefined) continue;
      if (hit && hit.count === item.count && hit.gen === item.gen) pinned.set(id, hit.columns);
      else {
        found.delete(id);
        changed.push(key);
      }
    }
    await fetch(changed, found);
    return { found, pinned };
  };

  /** A fetched bucket's columns: pinned or decoded now, and marked most recently used (the oldest are evicted once the call is done). */
  const decode = (item: Item, pinned: Map<string, ReadingColumns>) => {
    const id = bucketId(item);
    if (decoded.has(id)) decoded.delete(id);
    let columns = pinned.get(id);
    if (!columns) {
      columns = columnsFromDay(readBucket(item.data));
      pinned.set(id, columns);
    }
    decoded.set(id, { count: item.count, gen: item.gen, columns });
    return columns;
  };

  return {
    async fetch(keys) {
      const { found, pinned } = await fetchBuckets(keys);
      return { get: (key) => found.get(`${key.pk}|${key.sk}`), columns: (item) => decode(item, pinned) };
    },
    trim() {
      while (decoded.size > DECODED_BUCKETS) decoded.delete(decoded.keys().next().value as string);
    },
  };
};
