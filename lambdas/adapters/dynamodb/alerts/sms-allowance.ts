import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { alertsKeys as k } from '../keys';
import { conditional, getItem } from '../query';
import type { SmsAllowance } from '../../../ports/alerts';
import { countSms } from './fleet-counters';

/**
 * The month's count of a farm's texts (`sent`) with the deliveries holding them (`holders`, a
 * string set of at most the month's allowance): taking and giving back are conditional on the
 * holder, so a retry after a crash never takes a second text for the same delivery.
 */
export const smsAllowance = (doc: DynamoDBDocumentClient, table: string): SmsAllowance => ({
  async reserveSms(farmId, month, total, holder) {
    const taken = await conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.smsCount(farmId, month),
          UpdateExpression: 'ADD sent :one, holders :holder',
          ConditionExpression: '(attribute_not_exists(sent) OR sent < :total) AND NOT contains(holders, :id)',
          ExpressionAttributeValues: { ':one': 1, ':total': total, ':holder': new Set([holder]), ':id': holder },
        }),
      ),
    );
    if (taken) {
      await countSms(doc, table, month, 1);
      return true;
    }
    // Refused: the allowance is used up, or this delivery already holds its text (a retry).
    const item = await getItem(doc, table, k.smsCount(farmId, month), { ProjectionExpression: '#h', ExpressionAttributeNames: { '#h': 'holders' } });
    return item?.holders instanceof Set && item.holders.has(holder);
  },

  async releaseSms(farmId, month, holder) {
    const released = await conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.smsCount(farmId, month),
          UpdateExpression: 'ADD sent :minus DELETE holders :holder',
          ConditionExpression: 'contains(holders, :id)',
          ExpressionAttributeValues: { ':minus': -1, ':holder': new Set([holder]), ':id': holder },
        }),
      ),
    );
    if (released) await countSms(doc, table, month, -1);
  },

  async saveSms(farmId, month, holder) {
    // Conditional on the holder, so a retried run counts a saved text once.
    await conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.smsCount(farmId, month),
          UpdateExpression: 'ADD saved :one, saved_by :holder',
          ConditionExpression: 'NOT contains(saved_by, :id)',
          ExpressionAttributeValues: { ':one': 1, ':holder': new Set([holder]), ':id': holder },
        }),
      ),
    );
  },

  async smsSavedCount(farmId, month) {
    const item = await getItem(doc, table, k.smsCount(farmId, month), { ProjectionExpression: '#s', ExpressionAttributeNames: { '#s': 'saved' } });
    return item ? Number(item.saved ?? 0) : 0;
  },

  async smsCount(farmId, month) {
    const item = await getItem(doc, table, k.smsCount(farmId, month));
    return item ? Number(item.sent ?? 0) : 0;
  },
});
