import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys as k } from '../keys';
import { getItem, queryAll, type Item } from '../query';
import { daysBetween } from './readings';
import type { RawArchive } from '../../../ports/readings';

/** The raw payload sits on the reading item: these reads take the sort key and `raw` alone. */
const RAW_PROJECTION = { ProjectionExpression: 'sk, #raw', ExpressionAttributeNames: { '#raw': 'raw' } };
const toRaw = (i: Item) => ({ published_at: String(i.sk), raw: String(i.raw) });

export const rawArchive = (doc: DynamoDBDocumentClient, table: string): RawArchive => ({
  async listRaw(deviceId, day) {
    const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day) }, ...RAW_PROJECTION });
    return items.map(toRaw);
  },

  async listRawBetween(deviceId, from, to) {
    const parts = await Promise.all(
      daysBetween(from, to).map((day) =>
        queryAll(doc, table, {
          KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':p': k.dayPartition(deviceId, day), ':from': from, ':to': to },
          ...RAW_PROJECTION,
        }),
      ),
    );
    return parts.flat().map(toRaw);
  },

  async getRaw(deviceId, publishedAt) {
    const item = await getItem(doc, table, k.reading(deviceId, publishedAt), { ProjectionExpression: '#raw', ExpressionAttributeNames: { '#raw': 'raw' } });
    return typeof item?.raw === 'string' ? item.raw : undefined;
  },
});
