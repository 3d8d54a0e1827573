import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  DeleteCommand,
  UpdateCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { RAW_ARCHIVE_DAYS } from '../../../shared/constants';
import { ACTIVITY_KINDS, type Activity, type ActivityKind } from '../../../shared/telemetry/activities';
import { decodeDay, encodeDay, fromDayColumns, type DayColumns, type StoredDay } from '../../../shared/telemetry/day-bucket';
import { columnsFromDay, columnsFromReadings, concatColumns, sliceColumns, type ReadingColumns } from '../../../shared/telemetry/reading-columns';
import { readingKey, sameReading, type Reading } from '../../../shared/telemetry/reading';
import { READING_ITEM_ATTRIBUTES, readingFromItem, readingValues } from '../../../shared/telemetry/reading-item';
import { readingsKeys as k } from './keys';
import { dayOf } from '../../../shared/time/utc';
import { isConditionFailure, queryAll as queryItems } from './query';
import type { StoredActivity, ReadingsRepository } from '../../ports/readings';

const DAY_MS = 86_400_000;
/** Readings (and their raw payload) outlive the 30-day raw window a little, so a device that was
 * offline over a day boundary still gets that day compacted when it returns. */
const READING_TTL_DAYS = RAW_ARCHIVE_DAYS + 5;
const epochSeconds = (iso: string, plusDays: number) => Math.floor(Date.parse(iso) / 1000) + plusDays * 86_400;
const PAYLOAD_LIMIT = 8_192;
/** Readings this close to the newest are left out of a partial bucket (they may still arrive out of order). */
const PARTIAL_SAFETY_MS = 15 * 60_000;
/**
 * Decoded buckets kept per repository (about 250-400 KB each, so at most about 80 MB of a 512 MB
 * function): a 30-day range of 6 vats (6 × (31 days + 2 partials)). It must hold a whole range, or
 * a range read in a loop evicts each bucket before it is asked for again (4 vats' 124 buckets
 * against the 120 kept before missed every time).
 */
const DECODED_BUCKETS = 200;
/** A partial bucket is rewritten once its tail holds more readings than this (an hour at one a minute). */
const PARTIAL_REFRESH_READINGS = 60;


/** A bucket item's `data` (deflated JSON, version 1 or 2) as columns. */
const readBucket = (data: unknown): DayColumns => decodeDay(JSON.parse(inflateRawSync(data as Uint8Array).toString('utf8')) as StoredDay);

const toReading = readingFromItem;
/** A reading item's attributes for a read that decodes it (not the raw payload). */
const READING_PROJECTION = {
  ProjectionExpression: READING_ITEM_ATTRIBUTES.map((_, i) => `#f${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(READING_ITEM_ATTRIBUTES.map((f, i) => [`#f${i}`, f])),
};

/** UTC days from `from` to `to` inclusive, as YYYY-MM-DD. */
export const daysBetween = (from: string, to: string): string[] => {
  const days: string[] = [];
  for (let t = Date.parse(`${dayOf(from)}T00:00:00.000Z`); t <= Date.parse(to); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
};

const chunked = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
/** DynamoDB may leave part of a batch unprocessed under load: retry that part with a short backoff. */
const UNPROCESSED_RETRIES = 10;
/** getReadings asks a day partition's instants by one Query over their span from this many, when the span is at most this long a key (readings are a minute apart). */
const SPAN_QUERY_MIN_KEYS = 8;
const SPAN_QUERY_MS_PER_KEY = 2 * 60_000;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(500, 10 * 2 ** attempt) * (0.5 + Math.random())));

export const dynamoReadingsRepository = (doc: DynamoDBDocumentClient, table: string): ReadingsRepository => {
  const queryAll = (input: Omit<QueryCommandInput, 'TableName'>) => queryItems(doc, table, input);
  const guarded = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (err) {
      // A newer write is already there: this one is stale and must not land.
      if (!isConditionFailure(err)) throw err;
    }
  };

  /** A reading item as written (shared/telemetry/reading-item.ts, version 2). */
  const readingItem = (deviceId: string, reading: Reading, raw: string) => ({
    ...k.reading(deviceId, reading.published_at),
    ...readingValues(reading),
    raw,
    expires_at: epochSeconds(reading.published_at, READING_TTL_DAYS),
  });

  const readDay = (deviceId: string, day: string, from: string, to: string) =>
    queryAll({
      KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':a': from, ':b': to },
      // The raw payload stays behind: charts and detectors need the parsed values only.
      ...READING_PROJECTION,
    }).then((items) => items.map(toReading));

  const readPartitions = async (deviceId: string, from: string, to: string) => {
    const days = daysBetween(from, to);
    const parts = await Promise.all(days.map((d) => readDay(deviceId, d, from, to)));
    return parts.flat();
  };

  /**
   * Decoded buckets by `pk|sk`, most recently used last, with the count and generation that name
   * their content (a bucket never changes without its count growing or, a partial, its
   * generation): the dashboard asks for the same days again, and decoding (inflate and JSON.parse)
   * was the larger part of a warm 30-day call. Lives as long as the repository (a Lambda
   * container); bounded by DECODED_BUCKETS (about 300 KB each).
   */
  const decoded = new Map<string, { readonly count: unknown; readonly gen: unknown; readonly columns: ReadingColumns }>();
  const bucketId = (item: Record<string, unknown>) => `${String(item.pk)}|${String(item.sk)}`;

  /**
   * BatchGetItem of `keys` (100 a request, in parallel, unprocessed keys asked again) into `found`
   * by `pk|sk`; with `head`, only the attributes that name a bucket's content and the partial's
   * `through` (the decoded cache's check: a few bytes instead of the bucket's data).
   */
  const batchGet = async (keys: readonly Record<string, unknown>[], found: Map<string, Record<string, unknown>>, head = false) => {
    const projection = head
      ? { ProjectionExpression: '#pk, #sk, #c, #g, #th', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#c': 'count', '#g': 'gen', '#th': 'through' } }
      : {};
    await Promise.all(
      chunked(keys, 100).map(async (chunk) => {
        let pending: Record<string, unknown>[] = chunk;
        while (pending.length) {
          const res: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ...projection } } }));
          for (const item of res.Responses?.[table] ?? []) found.set(bucketId(item), item);
          pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
        }
      }),
    );
  };

  /**
   * Compacts an open day's readings from its start up to 15 minutes before the last one (a reading
   * late by less than that still lands in the tail that is read after the partial bucket). A reading
   * later than that, older than readings already stored, shows once the partial is rewritten (after
   * PARTIAL_REFRESH_READINGS more) or the day bucket is written. Conditional: never replaces a
   * partial that holds more readings, nor one the ingest dropped since `gen` was read (the
   * generation of the item as the read found it; undefined: no item).
   */
  const putPartial = async (deviceId: string, day: string, readings: readonly Reading[], gen: number | undefined) => {
    const last = readings[readings.length - 1];
    if (!last) return;
    const through = new Date(Date.parse(last.published_at) - PARTIAL_SAFETY_MS).toISOString();
    const kept = readings.filter((r) => r.published_at <= through);
    if (kept.length === 0) return;
    const data = deflateRawSync(Buffer.from(JSON.stringify(encodeDay(kept)), 'utf8'));
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...k.partialBucket(deviceId, day),
            device_id: deviceId,
            count: kept.length,
            through: (kept[kept.length - 1] as Reading).published_at,
            data,
            expires_at: epochSeconds(`${day}T00:00:00.000Z`, 3),
            ...(gen === undefined ? {} : { gen }),
          },
          ConditionExpression: `(attribute_not_exists(#c) OR #c < :c) AND ${gen === undefined ? 'attribute_not_exists(#g)' : '#g = :g'}`,
          ExpressionAttributeNames: { '#c': 'count', '#g': 'gen' },
          ExpressionAttributeValues: { ':c': kept.length, ...(gen === undefined ? {} : { ':g': gen }) },
        }),
      ),
    );
  };

  const activityItem = (a: StoredActivity, n: number) => ({
    ...k.activity(a.device_id, a.kind, a.start.published_at),
    kind: a.kind,
    device_id: a.device_id,
    farm_id: a.farm_id,
    start: a.start,
    end: a.end,
    _n: n,
  });
  const toActivity = (i: Record<string, unknown>): StoredActivity => ({
    kind: i.kind as ActivityKind,
    device_id: String(i.device_id),
    farm_id: String(i.farm_id),
    start: i.start as Activity['start'],
    end: (i.end ?? null) as Activity['end'],
  });

  return {
    async putReading(deviceId, reading, raw) {
      const key = k.reading(deviceId, reading.published_at);
      try {
        await doc.send(
          new PutCommand({
            TableName: table,
            Item: readingItem(deviceId, reading, raw),
            ConditionExpression: 'attribute_not_exists(sk)',
          }),
        );
        return 'created';
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const existing = (await doc.send(new GetCommand({ TableName: table, Key: key }))).Item;
        return existing && sameReading(toReading(existing), reading) ? 'duplicate' : 'conflict';
      }
    },

    async getReadings(keys) {
      const found = new Map<string, Reading>();
      const unique = [...new Map(keys.map((x) => [readingKey(x.deviceId, x.publishedAt), x])).values()];
      // A device's instants in one day partition, when there are many and they lie close together
      // (a device's backlog or a busy stream: one a minute), are asked by one Query over their
      // span: in the usual case nothing is stored there yet and the store reads nothing, where
      // BatchGetItem looks up every key (issue 14: half of dynalite's work on the duplicate check).
      // The rest, and whatever a span holds beyond its page, are asked by BatchGetItem.
      const byPartition = new Map<string, { deviceId: string; publishedAt: string }[]>();
      for (const x of unique) {
        const pk = k.reading(x.deviceId, x.publishedAt).pk;
        const group = byPartition.get(pk);
        if (group) group.push(x);
        else byPartition.set(pk, [x]);
      }
      const spans: { pk: string; asked: { deviceId: string; publishedAt: string }[] }[] = [];
      const singles: { deviceId: string; publishedAt: string }[] = [];
      for (const [pk, asked] of byPartition) {
        const times = asked.map((x) => Date.parse(x.publishedAt));
        const spanMs = Math.max(...times) - Math.min(...times);
        if (asked.length >= SPAN_QUERY_MIN_KEYS && spanMs <= asked.length * SPAN_QUERY_MS_PER_KEY) spans.push({ pk, asked });
        else singles.push(...asked);
      }
      await Promise.all([
        ...spans.map(async ({ pk, asked }) => {
          const sorted = asked.map((x) => x.publishedAt).sort();
          const page = await doc.send(
            new QueryCommand({
              TableName: table,
              KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
              ExpressionAttributeValues: { ':p': pk, ':a': sorted[0], ':b': sorted[sorted.length - 1] },
              // One page of at most a few times the asked instants: a span crowded with other readings costs no more than that.
              Limit: asked.length * 3,
              ...READING_PROJECTION,
            }),
          );
          const wanted = new Map(asked.map((x) => [x.publishedAt, x]));
          for (const item of page.Items ?? []) {
            const x = wanted.get(String(item.sk));
            if (x) found.set(readingKey(x.deviceId, x.publishedAt), toReading(item));
          }
          const last = page.LastEvaluatedKey?.sk;
          if (last !== undefined) singles.push(...asked.filter((x) => x.publishedAt > String(last)));
        }),
      ]);
      await Promise.all(
        chunked(singles, 100).map(async (chunk) => {
          // Answers are matched to the asked keys by pk and sk (a version 2 item has no device_id).
          let pending: Record<string, unknown>[] = chunk.map((x) => k.reading(x.deviceId, x.publishedAt));
          const asked = new Map(chunk.map((x, i) => [`${String(pending[i]?.pk)}|${x.publishedAt}`, readingKey(x.deviceId, x.publishedAt)]));
          for (let attempt = 0; pending.length > 0; attempt += 1) {
            if (attempt > UNPROCESSED_RETRIES) throw new Error(`getReadings: ${pending.length} keys still unprocessed`);
            if (attempt > 0) await backoff(attempt);
            const res: BatchGetCommandOutput = await doc.send(
              new BatchGetCommand({
                RequestItems: {
                  [table]: {
                    Keys: pending,
                    ProjectionExpression: `#pk, ${READING_PROJECTION.ProjectionExpression}`,
                    ExpressionAttributeNames: { '#pk': 'pk', ...READING_PROJECTION.ExpressionAttributeNames },
                  },
                },
              }),
            );
            for (const item of res.Responses?.[table] ?? []) {
              const id = asked.get(`${String(item.pk)}|${String(item.sk)}`);
              if (id !== undefined) found.set(id, toReading(item));
            }
            pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
          }
        }),
      );
      return found;
    },

    async writeReadings(entries) {
      await Promise.all(
        chunked(entries, 25).map(async (chunk) => {
          let pending: NonNullable<BatchWriteCommandInput['RequestItems']>[string] = chunk.map(({ deviceId, reading, raw }) => ({
            PutRequest: { Item: readingItem(deviceId, reading, raw) },
          }));
          for (let attempt = 0; pending.length > 0; attempt += 1) {
            if (attempt > UNPROCESSED_RETRIES) throw new Error(`writeReadings: ${pending.length} items still unprocessed`);
            if (attempt > 0) await backoff(attempt);
            const res = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
            pending = res.UnprocessedItems?.[table] ?? [];
          }
        }),
      );
    },

    readPartitions,

    async readRange(deviceId, from, to) {
      const [buckets, days] = [
        await queryAll({
          KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
          ExpressionAttributeValues: { ':p': k.bucketPartition(deviceId), ':a': dayOf(from), ':b': dayOf(to) },
        }),
        daysBetween(from, to),
      ];
      const byDay = new Map(buckets.map((b) => [String(b.sk), b]));
      const parts = await Promise.all(
        days.map(async (day) => {
          const bucket = byDay.get(day);
          if (!bucket) return readDay(deviceId, day, from, to);
          const columns = readBucket(bucket.data);
          return fromDayColumns(columns).filter((r) => r.published_at >= from && r.published_at <= to);
        }),
      );
      return parts.flat();
    },

    async readRangeColumns(deviceIds, from, to) {
      const days = daysBetween(from, to);
      const openDays = days.slice(-2);
      // Every (device, day) bucket by key in one BatchGetItem per 100 keys, in parallel (4 vats over
      // 30 days: 2 requests where a Query per device is 4), with the partial buckets of the last two
      // days. A bucket already decoded is asked for its count and generation only (and its data
      // again only if they changed): a warm 30-day call no longer fetches 1.3 MiB it does not decode.
      // DynamoDB bills a projected read as the whole item, so this costs the same read units.
      const keys = deviceIds.flatMap((id) => [...days.map((day) => k.dayBucket(id, day)), ...openDays.map((day) => k.partialBucket(id, day))]);
      const known = keys.filter((key) => decoded.has(bucketId(key)));
      const found = new Map<string, Record<string, unknown>>();
      await Promise.all([
        batchGet(
          keys.filter((key) => !decoded.has(bucketId(key))),
          found,
        ),
        batchGet(known, found, true),
      ]);
      // The decoded columns of the buckets whose head matched, held for this call (another call
      // may evict them from the cache meanwhile); a bucket rewritten since it was decoded (a late
      // reading, a newer partial) is read whole again, its head forgotten first so that a bucket
      // gone in between reads as absent.
      const pinned = new Map<string, ReadingColumns>();
      const changed: Record<string, unknown>[] = [];
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
      await batchGet(changed, found);
      const get = (key: { pk: string; sk: string }) => found.get(`${key.pk}|${key.sk}`);
      const decode = (item: Record<string, unknown>) => {
        const id = bucketId(item);
        const hit = decoded.get(id);
        if (hit) decoded.delete(id);
        let columns = pinned.get(id);
        if (!columns) {
          columns = columnsFromDay(readBucket(item.data));
          pinned.set(id, columns);
        }
        // Most recently used last; the oldest are evicted once the call is done.
        decoded.set(id, { count: item.count, gen: item.gen, columns });
        return columns;
      };
      const fromMs = Date.parse(from);
      const toMs = Date.parse(to);

      const openDay = async (deviceId: string, day: string): Promise<ReadingColumns> => {
        const dayStart = `${day}T00:00:00.000Z`;
        const partial = get(k.partialBucket(deviceId, day));
        if (partial && typeof partial.through === 'string' && from <= dayStart) {
          const after = new Date(Date.parse(partial.through) + 1).toISOString();
          const tail = after <= to ? await readDay(deviceId, day, after, to) : [];
          if (tail.length <= PARTIAL_REFRESH_READINGS) return concatColumns([sliceColumns(decode(partial), fromMs, toMs), columnsFromReadings(tail)]);
        }
        const readings = await readDay(deviceId, day, from, to);
        // Only the days whose partial is looked up (the last two) are worth compacting here.
        if (from <= dayStart && openDays.includes(day)) await putPartial(deviceId, day, readings, typeof partial?.gen === 'number' ? partial.gen : undefined);
        return columnsFromReadings(readings);
      };

      const ranges = await Promise.all(
        deviceIds.map(async (deviceId) => {
          const parts = await Promise.all(
            days.map((day) => {
              const bucket = get(k.dayBucket(deviceId, day));
              return bucket ? sliceColumns(decode(bucket), fromMs, toMs) : openDay(deviceId, day);
            }),
          );
          return concatColumns(parts);
        }),
      );
      while (decoded.size > DECODED_BUCKETS) decoded.delete(decoded.keys().next().value as string);
      return ranges;
    },

    async listRaw(deviceId, day) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day) },
        ProjectionExpression: 'sk, #raw',
        ExpressionAttributeNames: { '#raw': 'raw' },
      });
      return items.map((i) => ({ published_at: String(i.sk), raw: String(i.raw) }));
    },

    async listRawBetween(deviceId, from, to) {
      const parts = await Promise.all(
        daysBetween(from, to).map((day) =>
          queryAll({
            KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':from': from, ':to': to },
            ProjectionExpression: 'sk, #raw',
            ExpressionAttributeNames: { '#raw': 'raw' },
          }),
        ),
      );
      return parts.flat().map((i) => ({ published_at: String(i.sk), raw: String(i.raw) }));
    },

    async getRaw(deviceId, publishedAt) {
      const res = await doc.send(new GetCommand({ TableName: table, Key: k.reading(deviceId, publishedAt), ProjectionExpression: '#raw', ExpressionAttributeNames: { '#raw': 'raw' } }));
      return typeof res.Item?.raw === 'string' ? res.Item.raw : undefined;
    },

    async dropPartial(deviceId, day) {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.partialBucket(deviceId, day),
          UpdateExpression: 'SET #g = if_not_exists(#g, :zero) + :one, expires_at = :exp REMOVE #data, #c, through',
          ExpressionAttributeNames: { '#g': 'gen', '#data': 'data', '#c': 'count' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':exp': epochSeconds(`${day}T00:00:00.000Z`, 3) },
        }),
      );
    },

    async compactDay(deviceId, day) {
      const readings = await readDay(deviceId, day, `${day}T00:00:00.000Z`, `${day}T23:59:59.999Z`);
      if (readings.length === 0) return;
      const data = deflateRawSync(Buffer.from(JSON.stringify(encodeDay(readings)), 'utf8'));
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.dayBucket(deviceId, day), device_id: deviceId, count: readings.length, data },
            // Readings are never removed, so a bucket holding more of them is the newer one.
            ConditionExpression: 'attribute_not_exists(#c) OR #c <= :c',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':c': readings.length },
          }),
        ),
      );
    },

    async getSnapshotAtOrBefore(deviceId, iso) {
      const page = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :p AND sk <= :t',
          ExpressionAttributeValues: { ':p': k.snapshotPartition(deviceId), ':t': iso },
          ScanIndexForward: false,
          Limit: 1,
        }),
      );
      const item = page.Items?.[0];
      return item ? { hour: String(item.sk), state: JSON.parse(String(item.state)) as unknown } : undefined;
    },

    async putSnapshot(deviceId, hour, state, n) {
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.snapshot(deviceId, hour), state: JSON.stringify(state), _n: n, expires_at: epochSeconds(`${hour}:00:00.000Z`, READING_TTL_DAYS) },
            ConditionExpression: 'attribute_not_exists(#n) OR #n <= :n',
            ExpressionAttributeNames: { '#n': '_n' },
            ExpressionAttributeValues: { ':n': n },
          }),
        ),
      );
    },

    async putActivity(activity, n) {
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: activityItem(activity, n),
            ConditionExpression: 'attribute_not_exists(#n) OR #n <= :n',
            ExpressionAttributeNames: { '#n': '_n' },
            ExpressionAttributeValues: { ':n': n },
          }),
        ),
      );
    },

    async deleteActivity(deviceId, kind, start, n) {
      await guarded(() =>
        doc.send(
          new DeleteCommand({
            TableName: table,
            Key: k.activity(deviceId, kind, start),
            ConditionExpression: 'attribute_not_exists(#n) OR #n <= :n',
            ExpressionAttributeNames: { '#n': '_n' },
            ExpressionAttributeValues: { ':n': n },
          }),
        ),
      );
    },

    async listActivities(deviceId, from, to, kinds = ACTIVITY_KINDS) {
      const lists = await Promise.all(
        kinds.map((kind) =>
          queryAll({
            KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
            ExpressionAttributeValues: { ':p': k.activityPartition(deviceId), ':a': `${kind}#${from}`, ':b': `${kind}#${to}` },
          }),
        ),
      );
      return lists.flat().map(toActivity);
    },

    async getActivity(deviceId, kind, start) {
      const item = (await doc.send(new GetCommand({ TableName: table, Key: k.activity(deviceId, kind, start) }))).Item;
      return item ? toActivity(item) : undefined;
    },

    async latestReading(deviceId, now) {
      const today = dayOf(now);
      const yesterday = dayOf(new Date(Date.parse(`${today}T00:00:00.000Z`) - DAY_MS).toISOString());
      for (const day of [today, yesterday]) {
        const page = await doc.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :p AND sk <= :t',
            ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':t': now },
            ...READING_PROJECTION,
            ScanIndexForward: false,
            Limit: 1,
          }),
        );
        const item = page.Items?.[0];
        if (item) return toReading(item);
      }
      return undefined;
    },

    async latestActivity(deviceId, kind) {
      const page = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :p AND begins_with(sk, :k)',
          ExpressionAttributeValues: { ':p': k.activityPartition(deviceId), ':k': `${kind}#` },
          ScanIndexForward: false,
          Limit: 1,
        }),
      );
      const item = page.Items?.[0];
      return item ? toActivity(item) : undefined;
    },

    async putHerdNote(deviceId, start, herd) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.herdNote(deviceId, start), herd: JSON.stringify(herd) } }));
    },

    async getHerdNote(deviceId, start) {
      const item = (await doc.send(new GetCommand({ TableName: table, Key: k.herdNote(deviceId, start) }))).Item;
      return item ? (JSON.parse(String(item.herd)) as unknown) : undefined;
    },

    async putRejected(message, digest) {
      const day = dayOf(message.received_at);
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...k.rejected(day, digest),
            ...message,
            payload: message.payload.slice(0, PAYLOAD_LIMIT),
            expires_at: epochSeconds(message.received_at, RAW_ARCHIVE_DAYS),
          },
        }),
      );
    },

    async listRejected(day) {
      const items = await queryAll({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.rejectedPartition(day) } });
      return items.map((i) => ({ received_at: String(i.received_at), topic: String(i.topic), reason: String(i.reason), payload: String(i.payload) }));
    },
  };
};
