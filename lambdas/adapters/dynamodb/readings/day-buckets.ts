import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { fromDayColumns } from '../../../../shared/telemetry/day-bucket';
import { columnsFromReadings, concatColumns, sliceColumns, type ReadingColumns } from '../../../../shared/telemetry/reading-columns';
import { dayOf } from '../../../../shared/time/utc';
import { readingsKeys as k } from '../keys';
import { guarded, queryAll } from '../query';
import { encodeBucket, readBucket } from './bucket-data';
import { decodedBuckets } from './decoded-buckets';
import { daysBetween, type DayPartitions } from './readings';
import { openDays } from './open-days';
import type { DayBuckets } from '../../../ports/readings';

/** An open day kept in memory is read again whole once its tail holds more readings than this (an hour at one a minute). */
const OPEN_DAY_REFRESH_READINGS = 60;

/**
 * The range reads over compacted days. A day of a range comes from its bucket once compacted, else
 * from its day partition (`days`); the range's open days are kept in memory for the next read
 * (open-days.ts). A read writes nothing: the only write here is the ingest's compactDay.
 */
export const dayBuckets = (doc: DynamoDBDocumentClient, table: string, { days }: { days: DayPartitions }): DayBuckets => {
  const cache = decodedBuckets(doc, table);
  const opened = openDays();

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
      // 30 days: 2 requests where a Query per device is 4), with the drop markers of the last two days.
      const buckets = await cache.fetch(
        deviceIds.flatMap((id) => [...range.map((day) => k.dayBucket(id, day)), ...openDays.map((day) => k.partialBucket(id, day))]),
      );
      const fromMs = Date.parse(from);
      const toMs = Date.parse(to);

      const openDay = async (deviceId: string, day: string): Promise<ReadingColumns> => {
        const dayStart = `${day}T00:00:00.000Z`;
        // The day's drop marker: its generation says whether a late reading arrived since the day was kept.
        const gen = buckets.get(k.partialBucket(deviceId, day))?.gen;
        const hit = from <= dayStart ? opened.get(deviceId, day, gen) : undefined;
        if (hit) {
          const after = new Date(Date.parse(hit.through) + 1).toISOString();
          const tail = after <= to ? await days.readDay(deviceId, day, after, to) : [];
          if (tail.length <= OPEN_DAY_REFRESH_READINGS) return concatColumns([sliceColumns(hit.columns, fromMs, toMs), columnsFromReadings(tail)]);
        }
        const readings = await days.readDay(deviceId, day, from, to);
        // Only the days whose marker is looked up (the last two) are worth keeping.
        if (from <= dayStart && openDays.includes(day)) opened.remember(deviceId, day, gen, readings);
        return columnsFromReadings(readings);
      };

      const ranges = await Promise.all(
        deviceIds.map(async (deviceId) => {
          const parts = await Promise.all(
            range.map((day) => {
              const bucket = buckets.get(k.dayBucket(deviceId, day));
              return bucket ? sliceColumns(buckets.columns(bucket), fromMs, toMs) : openDay(deviceId, day);
            }),
          );
          return concatColumns(parts);
        }),
      );
      cache.trim();
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
