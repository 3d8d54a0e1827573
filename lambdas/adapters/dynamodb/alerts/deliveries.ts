import { PutCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../../shared/data/tables';
import { alertsKeys as k } from '../keys';
import { conditional, queryAll, unlessConditionFails, type Item } from '../query';
import type { Delivery, DeliveryOutcome, DeliveryQueue } from '../../../ports/alerts';

const DELIVERY_FIELDS = ['farm_id', 'alert_id', 'user_id', 'channel', 'state', 'attempts', 'due_at', 'created_at', 'lease', 'note', 'fallback', 'sms_month', 'last_error', 'settled_at', 'message_id', 'escalation', 'escalation_due', 'device', 'after_push'] as const;

export const toDelivery = (item: Item): Delivery => {
  const out: Record<string, unknown> = {};
  for (const f of DELIVERY_FIELDS) if (item[f] !== undefined) out[f] = item[f];
  return { ...(out as unknown as Delivery), attempts: Number(item.attempts ?? 0) };
};
type DeliveryId = Pick<Delivery, 'farm_id' | 'alert_id' | 'user_id' | 'channel' | 'escalation' | 'device'>;
/** The channel part of a delivery's keys: an escalation step is a delivery of its own (`sms#e1`), and so is a push to each browser (`push#<subscription>`). */
const keyChannel = (d: DeliveryId): string => {
  if (d.channel === 'push') return `push#${d.device ?? ''}`;
  return d.escalation ? `${d.channel}#e${d.escalation}` : d.channel;
};
export const deliveryKey = (d: DeliveryId) => k.delivery(d.farm_id, d.alert_id, d.user_id, keyChannel(d));
export const dueIndex = (d: DeliveryId, dueAt: string) => k.deliveryDueIndex(dueAt, d.farm_id, d.alert_id, d.user_id, keyChannel(d));

/** The update that settles a claimed delivery: due again (it stays in the due index), dead (to the dead-letter index) or done. */
const settleUpdate = (d: DeliveryId, lease: string, outcome: DeliveryOutcome): Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeValues'> => {
  if (outcome.state === 'pending')
    return {
      UpdateExpression: `SET #s = :s, due_at = :due, gsi1sk = :gsk, last_error = :e${outcome.escalation_due ? ', escalation_due = :ed' : ''} REMOVE lease`,
      ExpressionAttributeValues: {
        ':s': 'pending',
        ':due': outcome.due_at,
        ':gsk': dueIndex(d, outcome.due_at).gsi1sk,
        ':e': outcome.error,
        ':lease': lease,
        ...(outcome.escalation_due ? { ':ed': outcome.escalation_due } : {}),
      },
    };
  if (outcome.state === 'dead') {
    const dead = k.deadLetterIndex(outcome.at, d.farm_id, d.alert_id, d.user_id, keyChannel(d));
    return {
      UpdateExpression: 'SET #s = :s, settled_at = :at, last_error = :e, gsi1pk = :dpk, gsi1sk = :dsk REMOVE lease',
      ExpressionAttributeValues: { ':s': outcome.state, ':at': outcome.at, ':e': outcome.error, ':lease': lease, ':dpk': dead.gsi1pk, ':dsk': dead.gsi1sk },
    };
  }
  return {
    UpdateExpression: `SET #s = :s, settled_at = :at${outcome.state === 'sent' ? (outcome.message_id ? ', message_id = :m' : '') : ', last_error = :e'} REMOVE lease, gsi1pk, gsi1sk`,
    ExpressionAttributeValues: {
      ':s': outcome.state,
      ':at': outcome.at,
      ':lease': lease,
      ...(outcome.state === 'sent' ? (outcome.message_id ? { ':m': outcome.message_id } : {}) : { ':e': outcome.error }),
    },
  };
};

/** The first `limit` deliveries of one gsi1 key range (the due or dead-letter index). */
const fromIndex = (doc: DynamoDBDocumentClient, table: string, input: { KeyConditionExpression: string; ExpressionAttributeValues: Item; ScanIndexForward?: boolean }, limit: number) =>
  queryAll(doc, table, { IndexName: GSI1, ...input, Limit: limit }, limit).then((items) => items.map(toDelivery));

export const deliveryQueue = (doc: DynamoDBDocumentClient, table: string): DeliveryQueue => ({
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
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': k.deliveryPrefix(alertId) },
      ConsistentRead: true,
    });
    return items.map(toDelivery);
  },

  listDueDeliveries: (now, limit) =>
    fromIndex(
      doc,
      table,
      // '#' sorts after every digit, so a delivery due at exactly `now` is included.
      { KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :now', ExpressionAttributeValues: { ':p': 'DELIVERY#DUE', ':now': `${now.toISOString()}#~` } },
      limit,
    ),

  claimDelivery(d, lease, now, leaseUntil) {
    const until = leaseUntil.toISOString();
    return unlessConditionFails(
      async () => {
        const res = await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: deliveryKey(d),
            UpdateExpression: 'SET #s = :sending, lease = :lease, due_at = :until, gsi1sk = :gsk ADD attempts :one',
            ConditionExpression: '(#s = :pending OR #s = :sending) AND due_at <= :now',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':sending': 'sending', ':pending': 'pending', ':lease': lease, ':until': until, ':gsk': dueIndex(d, until).gsi1sk, ':one': 1, ':now': now.toISOString() },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? toDelivery(res.Attributes) : undefined;
      },
      () => undefined,
    );
  },

  settleDelivery: (d, lease, outcome) =>
    conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: deliveryKey(d),
          ...settleUpdate(d, lease, outcome),
          ConditionExpression: 'lease = :lease',
          ExpressionAttributeNames: { '#s': 'state' },
        }),
      ),
    ),

  hastenDelivery: (d, dueAt) =>
    conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: deliveryKey(d),
          UpdateExpression: 'SET due_at = :due, gsi1sk = :gsk',
          ConditionExpression: '#s = :pending AND due_at = :was',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':due': dueAt, ':gsk': dueIndex(d, dueAt).gsi1sk, ':pending': 'pending', ':was': d.due_at },
        }),
      ),
    ),

  listDeadLetters: (limit) => fromIndex(doc, table, { KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': 'DELIVERY#DEAD' }, ScanIndexForward: false }, limit),
});
