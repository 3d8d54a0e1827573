import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RAW_ARCHIVE_DAYS } from '../../../../shared/constants';
import { dayOf } from '../../../../shared/time/utc';
import { readingsKeys as k } from '../keys';
import { queryAll } from '../query';
import { epochSeconds } from './readings';
import type { RejectedMessages } from '../../../ports/readings';

/** A rejected message keeps at most this much of its payload. */
const PAYLOAD_LIMIT = 8_192;

const rejectedOf = (i: Record<string, unknown>) => ({ received_at: String(i.received_at), topic: String(i.topic), reason: String(i.reason), payload: String(i.payload) });

export const rejectedMessages = (doc: DynamoDBDocumentClient, table: string): RejectedMessages => ({
  async putRejected(message, digest) {
    await doc.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...k.rejected(dayOf(message.received_at), digest),
          ...message,
          payload: message.payload.slice(0, PAYLOAD_LIMIT),
          expires_at: epochSeconds(message.received_at, RAW_ARCHIVE_DAYS),
        },
      }),
    );
  },

  async listRejected(day) {
    const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.rejectedPartition(day) } });
    return items.map(rejectedOf);
  },

  async pageRejected(day, limit, after) {
    const pk = k.rejectedPartition(day);
    const page = await doc.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': pk },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
      }),
    );
    const next = page.LastEvaluatedKey?.sk;
    return { items: (page.Items ?? []).map(rejectedOf), ...(typeof next === 'string' ? { next } : {}) };
  },
});
