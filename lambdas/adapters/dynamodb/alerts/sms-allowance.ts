import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { alertsKeys as k } from '../keys';
import { conditional, getItem } from '../query';
import type { SmsAllowance } from '../../../ports/alerts';

export const smsAllowance = (doc: DynamoDBDocumentClient, table: string): SmsAllowance => ({
  reserveSms: (farmId, month, total) =>
    conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.smsCount(farmId, month),
          UpdateExpression: 'ADD sent :one',
          ConditionExpression: 'attribute_not_exists(sent) OR sent < :total',
          ExpressionAttributeValues: { ':one': 1, ':total': total },
        }),
      ),
    ),

  async releaseSms(farmId, month) {
    await doc.send(new UpdateCommand({ TableName: table, Key: k.smsCount(farmId, month), UpdateExpression: 'ADD sent :minus', ExpressionAttributeValues: { ':minus': -1 } }));
  },

  async smsCount(farmId, month) {
    const item = await getItem(doc, table, k.smsCount(farmId, month));
    return item ? Number(item.sent ?? 0) : 0;
  },
});
