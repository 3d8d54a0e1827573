import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ARCHIVED_NOTIFICATION_RETENTION_DAYS, NOTIFICATION_STATUS } from '../../../../shared/alerts/types';
import { alertsKeys as k } from '../keys';
import { conditional, getItem, queryAll, queryGsi1, unlessConditionFails, type Item } from '../query';
import type { NotificationStore, StoredNotification } from '../../../ports/alerts';
import { countRaised } from './fleet-counters';

const NOTIFICATION_FIELDS = ['_id', 'farm_id', 'type', 'status', 'data', 'quality', 'lateMilking', 'device', 'created_at', 'detail', 'message_type', 'delivery_state', 'delivered'] as const;

const toNotification = (item: Item): StoredNotification => {
  const out: Record<string, unknown> = {};
  for (const f of NOTIFICATION_FIELDS) if (item[f] !== undefined) out[f] = item[f];
  const delivered = item.delivered instanceof Set ? [...(item.delivered as Set<string>)] : [];
  return { ...(out as unknown as StoredNotification), delivered, delivery_state: item.delivery_state === 'done' || item.delivery_state === 'too_old' ? item.delivery_state : 'pending' };
};

/** A farm's notifications, newest first (a notification's id starts with its trigger reading's time). */
const newestFirst = (farmId: string) => ({
  KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
  ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': k.notificationPrefix },
  ScanIndexForward: false,
});

export const notificationStore = (doc: DynamoDBDocumentClient, table: string): NotificationStore => {
  const get = async (farmId: string, alertId: string) => {
    const item = await getItem(doc, table, k.notification(farmId, alertId));
    return item ? toNotification(item) : undefined;
  };

  return {
    async raise(n, open) {
      if (open) {
        const ok = await conditional(() =>
          doc.send(
            new PutCommand({
              TableName: table,
              Item: { ...k.open(n.farm_id, n.device._id, n.type), kind: 'OPEN', alert_id: n._id, opened_at: n.data.published_at },
              ConditionExpression: 'attribute_not_exists(pk) OR alert_id = :id',
              ExpressionAttributeValues: { ':id': n._id },
            }),
          ),
        );
        if (!ok) return 'blocked';
      }
      const created = await conditional(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.notification(n.farm_id, n._id), ...k.pendingIndex(n.created_at, n._id), kind: 'NOTIFICATION', ...n, delivery_state: 'pending' },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
      if (created) await countRaised(doc, table, n.farm_id, n.type, new Date());
      return created ? 'created' : 'exists';
    },

    async clearOpen(farmId, deviceId, type) {
      await doc.send(new DeleteCommand({ TableName: table, Key: k.open(farmId, deviceId, type) }));
    },

    async list(farmId) {
      return (await queryAll(doc, table, newestFirst(farmId))).map(toNotification);
    },

    async listPage(farmId, { after, limit, keep }) {
      const kept: StoredNotification[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined = after ? k.notification(farmId, after) : undefined;
      // Pages of the raw items until the page is full of kept ones or the farm's list ends.
      do {
        const page = await doc.send(new QueryCommand({ TableName: table, ...newestFirst(farmId), Limit: limit, ExclusiveStartKey }));
        kept.push(...(page.Items ?? []).map(toNotification).filter(keep));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey && kept.length < limit);
      return kept.slice(0, limit);
    },

    async listSince(farmId, from) {
      // A notification's id starts with its trigger reading's time, so the sort key orders them in time.
      const items = await queryAll(doc, table, {
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':from': `${k.notificationPrefix}${from}`, ':to': `${k.notificationPrefix}\uffff` },
      });
      return items.map(toNotification);
    },

    get,

    async setStatus(farmId, alertId, status, unlessArchived, at) {
      const archive = status === NOTIFICATION_STATUS.archived;
      const expiresAt = Math.floor(at.getTime() / 1000) + ARCHIVED_NOTIFICATION_RETENTION_DAYS * 86_400;
      return unlessConditionFails(
        async () => {
          const res = await doc.send(
            new UpdateCommand({
              TableName: table,
              Key: k.notification(farmId, alertId),
              UpdateExpression: archive ? 'SET #s = :s, #exp = if_not_exists(#exp, :exp)' : 'SET #s = :s',
              ConditionExpression: unlessArchived ? 'attribute_exists(pk) AND #s <> :archived' : 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#s': 'status', ...(archive ? { '#exp': 'expires_at' } : {}) },
              ExpressionAttributeValues: { ':s': status, ...(unlessArchived ? { ':archived': 3 } : {}), ...(archive ? { ':exp': expiresAt } : {}) },
              ReturnValues: 'ALL_NEW',
            }),
          );
          return res.Attributes ? toNotification(res.Attributes) : undefined;
        },
        // Archived already, or no such notification: answered as it is.
        () => get(farmId, alertId),
      );
    },

    async listPendingDelivery() {
      const keys = await queryGsi1(doc, table, 'DELIVERY#PENDING');
      const items = await Promise.all(keys.map((i) => getItem(doc, table, { pk: i.pk, sk: i.sk })));
      return items.flatMap((item) => (item && item.delivery_state !== 'done' ? [toNotification(item)] : []));
    },

    async finishDelivery(farmId, alertId, state = 'done') {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.notification(farmId, alertId),
          UpdateExpression: 'SET delivery_state = :d REMOVE gsi1pk, gsi1sk',
          ExpressionAttributeValues: { ':d': state },
        }),
      );
    },
  };
};
