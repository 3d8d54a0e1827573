import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HourPoint, MilkingEnd } from '../../../shared/watchman/rules';
import { readingsKeys as k } from './keys';
import { queryAll } from './query';
import type { WatchmanDigestRepository } from '../../ports/watchman';

/** Kept a little longer than the longest window a setting could sensibly ask for; the raw archive is 30 days. */
const DIGEST_DAYS = 35;

export const dynamoWatchmanDigestRepository = (doc: DynamoDBDocumentClient, table: string): WatchmanDigestRepository => ({
  async list(deviceId, fromHour, toHour) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':p': k.watchmanDigestPartition(deviceId), ':a': fromHour, ':b': toHour },
    });
    return items.map((i) => ({ hour: String(i.sk), point: (i.point ?? null) as HourPoint | null, ends: (i.ends ?? []) as MilkingEnd[] }));
  },
  async put(deviceId, digests) {
    for (let i = 0; i < digests.length; i += 25) {
      let pending: NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string] = digests.slice(i, i + 25).map((d) => ({
        PutRequest: { Item: { ...k.watchmanDigest(deviceId, d.hour), point: d.point, ends: d.ends, expires_at: Math.floor(Date.parse(d.hour) / 1000) + DIGEST_DAYS * 86_400 } },
      }));
      for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
        const res = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = res.UnprocessedItems?.[table] ?? [];
      }
    }
  },
});
