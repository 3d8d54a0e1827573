import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys } from '../../lambdas/adapters/dynamodb/keys';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { Reading } from '../../shared/telemetry/reading';
import { readingValues } from '../../shared/telemetry/reading-item';
import { dayOf } from '../../shared/time/utc';

/**
 * Readings stored as the ingest stores them, fast: putReading's items (reading and raw payload)
 * by BatchWrite, several batches at once (one conditional put at a time takes minutes for a
 * month), then each closed day of each device compacted into its bucket.
 */
export const storeReadings = async (
  doc: DynamoDBDocumentClient,
  table: string,
  entries: readonly { readonly deviceId: string; readonly reading: Reading; readonly raw: string }[],
  concurrency = 12,
): Promise<void> => {
  const items = entries.map(({ deviceId, reading: r, raw }) => ({ ...readingsKeys.reading(deviceId, r.published_at), ...readingValues(r), raw, expires_at: Math.floor(Date.parse(r.published_at) / 1000) + 35 * 86_400 }));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        let requests = items.slice(next, (next += 25)).map((Item) => ({ PutRequest: { Item } }));
        while (requests.length) {
          const res = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
          requests = (res.UnprocessedItems?.[table] ?? []) as typeof requests;
        }
      }
    }),
  );
  const readings = dynamoReadingsRepository(doc, table);
  const today = dayOf(new Date().toISOString());
  const closed = [...new Set(entries.map((e) => `${e.deviceId} ${dayOf(e.reading.published_at)}`))].map((k) => k.split(' ') as [string, string]).filter(([, day]) => day < today);
  await Promise.all(closed.map(([deviceId, day]) => readings.compactDay(deviceId, day)));
};
