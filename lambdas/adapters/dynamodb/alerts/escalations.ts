import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../../shared/data/tables';
import { conditional, queryAll } from '../query';
import { deliveryKey, dueIndex, toDelivery } from './deliveries';
import type { EscalationQueue } from '../../../ports/alerts';

/** Escalation steps are deliveries (their keys and index entries are the delivery queue's), found and moved by their own rules. */
export const escalationQueue = (doc: DynamoDBDocumentClient, table: string): EscalationQueue => ({
  async listWaitingEscalationsOf(userId, from, until) {
    const items = await queryAll(doc, table, {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk BETWEEN :from AND :until',
      FilterExpression: 'user_id = :u AND attribute_exists(escalation) AND #s = :pending',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':p': 'DELIVERY#DUE', ':from': from.toISOString(), ':until': `${until.toISOString()}#~`, ':u': userId, ':pending': 'pending' },
    });
    return items.map(toDelivery);
  },

  rescheduleEscalation: (d, dueAt, escalationDue) =>
    conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: deliveryKey(d),
          UpdateExpression: 'SET due_at = :due, gsi1sk = :gsk, escalation_due = :ed',
          ConditionExpression: '#s = :pending AND due_at = :was',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':due': dueAt, ':gsk': dueIndex(d, dueAt).gsi1sk, ':ed': escalationDue, ':pending': 'pending', ':was': d.due_at },
        }),
      ),
    ),
});
