import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pushSubscriptionSchema } from '../../../shared/alerts/push';
import type { PushSubscriptionStore, StoredPushSubscription } from '../../ports/push';
import { alertsKeys as k } from './keys';
import { queryAll, type Item } from './query';

const toSubscription = (item: Item): StoredPushSubscription | undefined => {
  const parsed = pushSubscriptionSchema.safeParse(item.subscription);
  if (!parsed.success) return undefined;
  return { id: String(item.id), user_id: String(item.user_id), subscription: parsed.data, created_at: String(item.created_at) };
};

/** A user's push subscriptions, items of their own partition (`USER#<sub>` / `PUSH#<id>`). */
export const dynamoPushSubscriptions = (doc: DynamoDBDocumentClient, table: string): PushSubscriptionStore => ({
  async listPushSubscriptions(userId) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': `USER#${userId}`, ':s': k.userPushSubscriptionPrefix },
      ConsistentRead: true,
    });
    return items.map(toSubscription).filter((s): s is StoredPushSubscription => s !== undefined);
  },
  async putPushSubscription(s) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.userPushSubscription(s.user_id, s.id), kind: 'PUSH_SUBSCRIPTION', ...s } }));
  },
  async deletePushSubscription(userId, id) {
    await doc.send(new DeleteCommand({ TableName: table, Key: k.userPushSubscription(userId, id) }));
  },
});
