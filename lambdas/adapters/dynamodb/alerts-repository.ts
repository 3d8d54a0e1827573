import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AlertEngineState } from '../../../shared/alerts/engine';
import { ARCHIVED_NOTIFICATION_RETENTION_DAYS, NOTIFICATION_STATUS } from '../../../shared/alerts/types';
import { GSI1 } from '../../../shared/data/tables';
import { alertsKeys as k } from './keys';
import { isConditionFailure, queryAll as queryItems } from './query';
import type { OutboxAlert, StoredNotification, DeliveryState, Delivery, AlertsRepository } from '../../ports/alerts';

export const SETTLED_DELIVERY_STATES: readonly DeliveryState[] = ['sent', 'dead', 'unconfirmed', 'skipped'];

const NOTIFICATION_FIELDS = ['_id', 'farm_id', 'type', 'status', 'data', 'quality', 'lateMilking', 'device', 'created_at', 'detail', 'message_type', 'delivery_state', 'delivered'] as const;

const toDelivery = (item: Record<string, unknown>): Delivery => {
  const out: Record<string, unknown> = {};
  for (const f of ['farm_id', 'alert_id', 'user_id', 'channel', 'state', 'attempts', 'due_at', 'created_at', 'lease', 'note', 'fallback', 'sms_month', 'last_error', 'settled_at', 'message_id', 'escalation', 'escalation_due'])
    if (item[f] !== undefined) out[f] = item[f];
  return { ...(out as unknown as Delivery), attempts: Number(item.attempts ?? 0) };
};
type DeliveryId = Pick<Delivery, 'farm_id' | 'alert_id' | 'user_id' | 'channel' | 'escalation'>;
/** The channel part of a delivery's keys: an escalation step is a delivery of its own (`sms#e1`). */
const keyChannel = (d: DeliveryId): string => (d.escalation ? `${d.channel}#e${d.escalation}` : d.channel);
const deliveryKey = (d: DeliveryId) => k.delivery(d.farm_id, d.alert_id, d.user_id, keyChannel(d));
const dueIndex = (d: DeliveryId, dueAt: string) => k.deliveryDueIndex(dueAt, d.farm_id, d.alert_id, d.user_id, keyChannel(d));

const toNotification = (item: Record<string, unknown>): StoredNotification => {
  const out: Record<string, unknown> = {};
  for (const f of NOTIFICATION_FIELDS) if (item[f] !== undefined) out[f] = item[f];
  const delivered = item.delivered instanceof Set ? [...(item.delivered as Set<string>)] : [];
  return { ...(out as unknown as StoredNotification), delivered, delivery_state: item.delivery_state === 'done' || item.delivery_state === 'too_old' ? item.delivery_state : 'pending' };
};


export const dynamoAlertsRepository = (doc: DynamoDBDocumentClient, table: string): AlertsRepository => {
  const queryAll = (input: Omit<QueryCommandInput, 'TableName'>) => queryItems(doc, table, input);
  const conditional = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  return {
    async getEngine(deviceId) {
      const item = (await doc.send(new GetCommand({ TableName: table, Key: k.engine(deviceId) }))).Item;
      if (!item) return undefined;
      return { n: Number(item.n), farm_id: String(item.farm_id), state: JSON.parse(String(item.state)) as AlertEngineState, outbox: JSON.parse(String(item.outbox ?? '[]')) as OutboxAlert[] };
    },
    putEngine: (deviceId, record, expectedN) =>
      conditional(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: {
              ...k.engine(deviceId),
              ...k.engineIndex(deviceId),
              kind: 'ENGINE',
              device_id: deviceId,
              farm_id: record.farm_id,
              n: record.n,
              state: JSON.stringify(record.state),
              outbox: JSON.stringify(record.outbox),
            },
            ConditionExpression: expectedN === undefined ? 'attribute_not_exists(pk)' : 'n = :expected',
            ...(expectedN === undefined ? {} : { ExpressionAttributeValues: { ':expected': expectedN } }),
          }),
        ),
      ),
    async listEngineDevices() {
      const items = await queryAll({ IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': 'ENGINE' } });
      return items.map((i) => ({ device_id: String(i.device_id), farm_id: String(i.farm_id) }));
    },
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
      return created ? 'created' : 'exists';
    },
    async clearOpen(farmId, deviceId, type) {
      await doc.send(new DeleteCommand({ TableName: table, Key: k.open(farmId, deviceId, type) }));
    },
    async list(farmId) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': k.notificationPrefix },
        ScanIndexForward: false,
      });
      return items.map(toNotification);
    },
    async listPage(farmId, { after, limit, keep }) {
      const kept: StoredNotification[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined = after ? k.notification(farmId, after) : undefined;
      // Pages of the raw items until the page is full of kept ones or the farm's list ends.
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
            ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': k.notificationPrefix },
            ScanIndexForward: false,
            Limit: limit,
            ExclusiveStartKey,
          }),
        );
        kept.push(...(page.Items ?? []).map(toNotification).filter(keep));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey && kept.length < limit);
      return kept.slice(0, limit);
    },
    async listSince(farmId, from) {
      // A notification's id starts with its trigger reading's time, so the sort key orders them in time.
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':from': `${k.notificationPrefix}${from}`, ':to': `${k.notificationPrefix}\uffff` },
      });
      return items.map(toNotification);
    },
    async get(farmId, alertId) {
      const item = (await doc.send(new GetCommand({ TableName: table, Key: k.notification(farmId, alertId) }))).Item;
      return item ? toNotification(item) : undefined;
    },
    async setStatus(farmId, alertId, status, unlessArchived, at) {
      const archive = status === NOTIFICATION_STATUS.archived;
      const expiresAt = Math.floor(at.getTime() / 1000) + ARCHIVED_NOTIFICATION_RETENTION_DAYS * 86_400;
      try {
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
      } catch (err) {
        if (isConditionFailure(err)) return this.get(farmId, alertId);
        throw err;
      }
    },
    async listPendingDelivery() {
      const keys = await queryAll({ IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': 'DELIVERY#PENDING' } });
      const items = await Promise.all(keys.map((i) => doc.send(new GetCommand({ TableName: table, Key: { pk: i.pk, sk: i.sk } }))));
      return items.flatMap((r) => (r.Item && r.Item.delivery_state !== 'done' ? [toNotification(r.Item)] : []));
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
    addDelivery: (d) =>
      conditional(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...deliveryKey(d), ...dueIndex(d, d.due_at), kind: 'DELIVERY', ...d, state: 'pending', attempts: 0 },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),
    async listDeliveries(farmId, alertId) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': k.deliveryPrefix(alertId) },
        ConsistentRead: true,
      });
      return items.map(toDelivery);
    },
    async listDueDeliveries(now, limit) {
      const items = await queryItems(
        doc,
        table,
        {
          IndexName: GSI1,
          // '#' sorts after every digit, so a delivery due at exactly `now` is included.
          KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :now',
          ExpressionAttributeValues: { ':p': 'DELIVERY#DUE', ':now': `${now.toISOString()}#~` },
          Limit: limit,
        },
        limit,
      );
      return items.map(toDelivery);
    },
    async listWaitingEscalationsOf(userId, from, until) {
      const items = await queryAll({
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
    async claimDelivery(d, lease, now, leaseUntil) {
      const until = leaseUntil.toISOString();
      try {
        const res = await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: deliveryKey(d),
            UpdateExpression: 'SET #s = :sending, lease = :lease, due_at = :until, gsi1sk = :gsk ADD attempts :one',
            ConditionExpression: '(#s = :pending OR #s = :sending) AND due_at <= :now',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: {
              ':sending': 'sending',
              ':pending': 'pending',
              ':lease': lease,
              ':until': until,
              ':gsk': dueIndex(d, until).gsi1sk,
              ':one': 1,
              ':now': now.toISOString(),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? toDelivery(res.Attributes) : undefined;
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
    settleDelivery: (d, lease, outcome) =>
      conditional(() =>
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: deliveryKey(d),
            ...(outcome.state === 'pending'
              ? {
                  UpdateExpression: `SET #s = :s, due_at = :due, gsi1sk = :gsk, last_error = :e${outcome.escalation_due ? ', escalation_due = :ed' : ''} REMOVE lease`,
                  ExpressionAttributeValues: {
                    ':s': 'pending',
                    ':due': outcome.due_at,
                    ':gsk': dueIndex(d, outcome.due_at).gsi1sk,
                    ':e': outcome.error,
                    ':lease': lease,
                    ...(outcome.escalation_due ? { ':ed': outcome.escalation_due } : {}),
                  },
                }
              : outcome.state === 'dead'
                ? {
                    // A dead letter moves from the due index to the dead-letter index.
                    UpdateExpression: 'SET #s = :s, settled_at = :at, last_error = :e, gsi1pk = :dpk, gsi1sk = :dsk REMOVE lease',
                    ExpressionAttributeValues: {
                      ':s': outcome.state,
                      ':at': outcome.at,
                      ':e': outcome.error,
                      ':lease': lease,
                      ':dpk': k.deadLetterIndex(outcome.at, d.farm_id, d.alert_id, d.user_id, keyChannel(d)).gsi1pk,
                      ':dsk': k.deadLetterIndex(outcome.at, d.farm_id, d.alert_id, d.user_id, keyChannel(d)).gsi1sk,
                    },
                  }
                : {
                    UpdateExpression: `SET #s = :s, settled_at = :at${outcome.state === 'sent' ? (outcome.message_id ? ', message_id = :m' : '') : ', last_error = :e'} REMOVE lease, gsi1pk, gsi1sk`,
                    ExpressionAttributeValues: {
                      ':s': outcome.state,
                      ':at': outcome.at,
                      ':lease': lease,
                      ...(outcome.state === 'sent' ? (outcome.message_id ? { ':m': outcome.message_id } : {}) : { ':e': outcome.error }),
                    },
                  }),
            ConditionExpression: 'lease = :lease',
            ExpressionAttributeNames: { '#s': 'state' },
          }),
        ),
      ),
    async listDeadLetters(limit) {
      const items = await queryItems(
        doc,
        table,
        { IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': 'DELIVERY#DEAD' }, ScanIndexForward: false, Limit: limit },
        limit,
      );
      return items.map(toDelivery);
    },
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
      await doc.send(
        new UpdateCommand({ TableName: table, Key: k.smsCount(farmId, month), UpdateExpression: 'ADD sent :minus', ExpressionAttributeValues: { ':minus': -1 } }),
      );
    },
    async smsCount(farmId, month) {
      const item = (await doc.send(new GetCommand({ TableName: table, Key: k.smsCount(farmId, month) }))).Item;
      return item ? Number(item.sent ?? 0) : 0;
    },
  };
};
