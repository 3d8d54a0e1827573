import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { fromDayColumns } from '../../../../shared/telemetry/day-bucket';
import { columnsFromDay, columnsFromReadings, concatColumns, sliceColumns, type ReadingColumns } from '../../../../shared/telemetry/reading-columns';
import { dayOf } from '../../../../shared/time/utc';
import { readingsKeys as k } from '../keys';
import { batchGet, guarded, queryAll, type Item, type Key } from '../query';
import { encodeBucket, readBucket } from './bucket-data';
import { daysBetween, type DayPartitions } from './readings';
import type { PartialWriter } from './partial-buckets';
import type { DayBuckets } from '../../../ports/readings';

/**
 * Decoded buckets kept per repository (about 250-400 KB each, so at most about 80 MB of a 512 MB
 * function): a 30-day range of 6 vats (6 × (31 days + 2 partials)). It must hold a whole range, or
 * a range read in a loop evicts each bucket before it is asked for again (4 vats' 124 buckets
 * against the 120 kept before missed every time).
 */
const DECODED_BUCKETS = 200;
/** A partial bucket is rewritten once its tail holds more readings than this (an hour at one a minute). */
const PARTIAL_REFRESH_READINGS = 60;
/** The attributes that name a bucket's content, and the partial's `through`: the decoded cache's check, a few bytes instead of the bucket's data. */
const BUCKET_HEAD = { ProjectionExpression: '#pk, #sk, #c, #g, #th', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#c': 'count', '#g': 'gen', '#th': 'through' } };

const bucketId = (item: Item) => `${String(item.pk)}|${String(item.sk)}`;

type Decoded = { readonly count: unknown; readonly gen: unknown; readonly columns: ReadingColumns };

/**
 * The range reads over compacted days. A day of a range comes from its bucket once compacted, else
 * from its day partition (`days`); the range's open days also leave a partial bucket (`partials`)
 * for the next read.
 */
export const dayBuckets = (doc: DynamoDBDocumentClient, table: string, { days, partials }: { days: DayPartitions; partials: PartialWriter }): DayBuckets => {
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
    async readRange(deviceId, from, to) {
      const buckets = await queryAll(doc, table, {
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':p': k.bucketPartition(deviceId), ':a': dayOf(from), ':b': dayOf(to) },
      });
      const byDay = new Map(buckets.map((b) => [String(b.sk), b]));
      const parts = await Promise.all(
        daysBetween(from, to).map(async (day) => {
          const bucket = byDay.get(day);
          if (!bucket) return days.readDay(deviceId, day, from, to);
          return fromDayColumns(readBucket(bucket.data)).filter((r) => r.published_at >= from && r.published_at <= to);
        }),
      );
      return parts.flat();
    },

    async readRangeColumns(deviceIds, from, to) {
      const range = daysBetween(from, to);
      const openDays = range.slice(-2);
      // Every (device, day) bucket by key in one BatchGetItem per 100 keys, in parallel (4 vats over
      // 30 days: 2 requests where a Query per device is 4), with the partial buckets of the last two days.
      const { found, pinned } = await fetchBuckets(
        deviceIds.flatMap((id) => [...range.map((day) => k.dayBucket(id, day)), ...openDays.map((day) => k.partialBucket(id, day))]),
      );
      const get = (key: { pk: string; sk: string }) => found.get(`${key.pk}|${key.sk}`);
      const fromMs = Date.parse(from);
      const toMs = Date.parse(to);

      const openDay = async (deviceId: string, day: string): Promise<ReadingColumns> => {
        const dayStart = `${day}T00:00:00.000Z`;
        const partial = get(k.partialBucket(deviceId, day));
        if (partial && typeof partial.through === 'string' && from <= dayStart) {
          const after = new Date(Date.parse(partial.through) + 1).toISOString();
          const tail = after <= to ? await days.readDay(deviceId, day, after, to) : [];
          if (tail.length <= PARTIAL_REFRESH_READINGS) return concatColumns([sliceColumns(decode(partial, pinned), fromMs, toMs), columnsFromReadings(tail)]);
        }
        const readings = await days.readDay(deviceId, day, from, to);
        // Only the days whose partial is looked up (the last two) are worth compacting here.
        if (from <= dayStart && openDays.includes(day)) await partials.putPartial(deviceId, day, readings, typeof partial?.gen === 'number' ? partial.gen : undefined);
        return columnsFromReadings(readings);
      };

      const ranges = await Promise.all(
        deviceIds.map(async (deviceId) => {
          const parts = await Promise.all(
            range.map((day) => {
              const bucket = get(k.dayBucket(deviceId, day));
              return bucket ? sliceColumns(decode(bucket, pinned), fromMs, toMs) : openDay(deviceId, day);
            }),
          );
          return concatColumns(parts);
        }),
      );
      while (decoded.size > DECODED_BUCKETS) decoded.delete(decoded.keys().next().value as string);
      return ranges;
    },

    async compactDay(deviceId, day) {
      const readings = await days.readDay(deviceId, day, `${day}T00:00:00.000Z`, `${day}T23:59:59.999Z`);
      if (readings.length === 0) return;
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.dayBucket(deviceId, day), device_id: deviceId, count: readings.length, data: encodeBucket(readings) },
            // Readings are never removed, so a bucket holding more of them is the newer one.
            ConditionExpression: 'attribute_not_exists(#c) OR #c <= :c',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':c': readings.length },
          }),
        ),
      );
    },
  };
};
