import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { alertsKeys as k } from '../keys';
import { conditional, getItem } from '../query';
import type { SmsAllowance } from '../../../ports/alerts';
import { countSms } from './fleet-counters';

export const smsAllowance = (doc: DynamoDBDocumentClient, table: string): SmsAllowance => ({
  async reserveSms(farmId, month, total) {
    const reserved = await conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.smsCount(farmId, month),
          UpdateExpression: 'ADD sent :one',
          ConditionExpression: 'attribute_not_exists(sent) OR sent < :total',
          ExpressionAttributeValues: { ':one': 1, ':total': total },
        }),
      ),
    );
    if (reserved) await countSms(doc, table, month, 1);
    return reserved;
  },

  async releaseSms(farmId, month) {
    await doc.send(new UpdateCommand({ TableName: table, Key: k.smsCount(farmId, month), UpdateExpression: 'ADD sent :minus', ExpressionAttributeValues: { ':minus': -1 } }));
    await countSms(doc, table, month, -1);
  },

  async smsCount(farmId, month) {
    const item = await getItem(doc, table, k.smsCount(farmId, month));
    return item ? Number(item.sent ?? 0) : 0;
  },
});
