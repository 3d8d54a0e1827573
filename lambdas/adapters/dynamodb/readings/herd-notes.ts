import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys as k } from '../keys';
import { getItem } from '../query';
import type { HerdNotes } from '../../../ports/readings';

export const herdNotes = (doc: DynamoDBDocumentClient, table: string): HerdNotes => ({
  async putHerdNote(deviceId, start, herd) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.herdNote(deviceId, start), herd: JSON.stringify(herd) } }));
  },

  async getHerdNote(deviceId, start) {
    const item = await getItem(doc, table, k.herdNote(deviceId, start));
    return item ? (JSON.parse(String(item.herd)) as unknown) : undefined;
  },
});
