import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RAW_ARCHIVE_DAYS } from '../../../../shared/constants';
import { readingKey, sameReading, type Reading } from '../../../../shared/telemetry/reading';
import { READING_ITEM_ATTRIBUTES, readingFromItem, readingValues } from '../../../../shared/telemetry/reading-item';
import { dayOf } from '../../../../shared/time/utc';
import { readingsKeys as k } from '../keys';
import { batchGet, batchWrite, isConditionFailure, queryAll, queryFirst, type Item } from '../query';
import type { ReadingsStore } from '../../../ports/readings';

const DAY_MS = 86_400_000;
/** Readings (and their raw payload) outlive the 30-day raw window a little, so a device that was
 * offline over a day boundary still gets that day compacted when it returns. */
export const READING_TTL_DAYS = RAW_ARCHIVE_DAYS + 5;
/** An item's expiry (its `expires_at`, epoch seconds): `plusDays` after `iso`. */
export const epochSeconds = (iso: string, plusDays: number) => Math.floor(Date.parse(iso) / 1000) + plusDays * 86_400;

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

/** getReadings asks a day partition's instants by one Query over their span from this many, when the span is at most this long a key (readings are a minute apart). */
const SPAN_QUERY_MIN_KEYS = 8;
const SPAN_QUERY_MS_PER_KEY = 2 * 60_000;

type ReadingAt = { readonly deviceId: string; readonly publishedAt: string };

/** One day partition's readings in [from, to]: the unit of every range read (the bucket stores read through it). */
export interface DayPartitions {
  readDay(deviceId: string, day: string, from: string, to: string): Promise<Reading[]>;
}

export const dayPartitions = (doc: DynamoDBDocumentClient, table: string): DayPartitions => ({
  readDay: (deviceId, day, from, to) =>
    queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':a': from, ':b': to },
      // The raw payload stays behind: charts and detectors need the parsed values only.
      ...READING_PROJECTION,
    }).then((items) => items.map(readingFromItem)),
});

/** A reading item as written (shared/telemetry/reading-item.ts, version 2). */
const readingItem = (deviceId: string, reading: Reading, raw: string) => ({
  ...k.reading(deviceId, reading.published_at),
  ...readingValues(reading),
  raw,
  expires_at: epochSeconds(reading.published_at, READING_TTL_DAYS),
});

/**
 * A device's instants in one day partition, when there are many and they lie close together (a
 * device's backlog or a busy stream: one a minute), are asked by one Query over their span: in the
 * usual case nothing is stored there yet and the store reads nothing, where BatchGetItem looks up
 * every key (half of dynalite's work on the duplicate check). The rest are asked by key.
 */
const splitBySpan = (unique: readonly ReadingAt[]) => {
  const byPartition = new Map<string, ReadingAt[]>();
  for (const x of unique) {
    const pk = k.reading(x.deviceId, x.publishedAt).pk;
    const group = byPartition.get(pk);
    if (group) group.push(x);
    else byPartition.set(pk, [x]);
  }
  const spans: { pk: string; asked: ReadingAt[] }[] = [];
  const singles: ReadingAt[] = [];
  for (const [pk, asked] of byPartition) {
    const times = asked.map((x) => Date.parse(x.publishedAt));
    const spanMs = Math.max(...times) - Math.min(...times);
    if (asked.length >= SPAN_QUERY_MIN_KEYS && spanMs <= asked.length * SPAN_QUERY_MS_PER_KEY) spans.push({ pk, asked });
    else singles.push(...asked);
  }
  return { spans, singles };
};

export const readingsStore = (doc: DynamoDBDocumentClient, table: string): ReadingsStore => {
  const { readDay } = dayPartitions(doc, table);

  /** One Query page over a span's instants into `found`; answers the instants beyond the page (to be asked by key). */
  const readSpan = async ({ pk, asked }: { pk: string; asked: ReadingAt[] }, found: Map<string, Reading>): Promise<ReadingAt[]> => {
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
      if (x) found.set(readingKey(x.deviceId, x.publishedAt), readingFromItem(item));
    }
    const last = page.LastEvaluatedKey?.sk;
    return last === undefined ? [] : asked.filter((x) => x.publishedAt > String(last));
  };

  return {
    async putReading(deviceId, reading, raw) {
      try {
        await doc.send(new PutCommand({ TableName: table, Item: readingItem(deviceId, reading, raw), ConditionExpression: 'attribute_not_exists(sk)' }));
        return 'created';
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const existing = (await doc.send(new GetCommand({ TableName: table, Key: k.reading(deviceId, reading.published_at) }))).Item;
        return existing && sameReading(readingFromItem(existing), reading) ? 'duplicate' : 'conflict';
      }
    },

    async getReadings(keys) {
      const found = new Map<string, Reading>();
      const { spans, singles } = splitBySpan([...new Map(keys.map((x) => [readingKey(x.deviceId, x.publishedAt), x])).values()]);
      // Whatever a span holds beyond its page is asked by key with the rest.
      for (const beyond of await Promise.all(spans.map((span) => readSpan(span, found)))) singles.push(...beyond);
      // Answers are matched to the asked keys by pk and sk (a version 2 item has no device_id).
      const asked = new Map(singles.map((x) => [`${k.reading(x.deviceId, x.publishedAt).pk}|${x.publishedAt}`, readingKey(x.deviceId, x.publishedAt)]));
      await batchGet(
        doc,
        table,
        singles.map((x) => k.reading(x.deviceId, x.publishedAt)),
        (item: Item) => {
          const id = asked.get(`${String(item.pk)}|${String(item.sk)}`);
          if (id !== undefined) found.set(id, readingFromItem(item));
        },
        {
          what: 'getReadings',
          projection: { ProjectionExpression: `#pk, ${READING_PROJECTION.ProjectionExpression}`, ExpressionAttributeNames: { '#pk': 'pk', ...READING_PROJECTION.ExpressionAttributeNames } },
        },
      );
      return found;
    },

    writeReadings: (entries) =>
      batchWrite(
        doc,
        table,
        entries.map(({ deviceId, reading, raw }) => ({ PutRequest: { Item: readingItem(deviceId, reading, raw) } })),
        'writeReadings',
      ),

    async readPartitions(deviceId, from, to) {
      const parts = await Promise.all(daysBetween(from, to).map((d) => readDay(deviceId, d, from, to)));
      return parts.flat();
    },

    async latestReading(deviceId, now) {
      const today = dayOf(now);
      const yesterday = dayOf(new Date(Date.parse(`${today}T00:00:00.000Z`) - DAY_MS).toISOString());
      for (const day of [today, yesterday]) {
        const item = await queryFirst(doc, table, {
          KeyConditionExpression: 'pk = :p AND sk <= :t',
          ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':t': now },
          ...READING_PROJECTION,
          ScanIndexForward: false,
        });
        if (item) return readingFromItem(item);
      }
      return undefined;
    },
  };
};
