import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACTIVITY_KINDS, type Activity, type ActivityKind } from '../../../../shared/telemetry/activities';
import { readingsKeys as k } from '../keys';
import { getItem, guarded, queryAll, queryFirst, type Item } from '../query';
import type { ActivityStore, StoredActivity } from '../../../ports/readings';

const activityItem = (a: StoredActivity, n: number) => ({
  ...k.activity(a.device_id, a.kind, a.start.published_at),
  kind: a.kind,
  device_id: a.device_id,
  farm_id: a.farm_id,
  start: a.start,
  end: a.end,
  _n: n,
});
const toActivity = (i: Item): StoredActivity => ({
  kind: i.kind as ActivityKind,
  device_id: String(i.device_id),
  farm_id: String(i.farm_id),
  start: i.start as Activity['start'],
  end: (i.end ?? null) as Activity['end'],
});
/** A write of the activity lands only over a version produced by a state that had seen no more readings (`_n`). */
const NOT_NEWER = { ConditionExpression: 'attribute_not_exists(#n) OR #n <= :n', ExpressionAttributeNames: { '#n': '_n' } };

export const activityStore = (doc: DynamoDBDocumentClient, table: string): ActivityStore => ({
  async putActivity(activity, n) {
    await guarded(() => doc.send(new PutCommand({ TableName: table, Item: activityItem(activity, n), ...NOT_NEWER, ExpressionAttributeValues: { ':n': n } })));
  },

  async deleteActivity(deviceId, kind, start, n) {
    await guarded(() => doc.send(new DeleteCommand({ TableName: table, Key: k.activity(deviceId, kind, start), ...NOT_NEWER, ExpressionAttributeValues: { ':n': n } })));
  },

  async listActivities(deviceId, from, to, kinds = ACTIVITY_KINDS) {
    const lists = await Promise.all(
      kinds.map((kind) =>
        queryAll(doc, table, {
          KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
          ExpressionAttributeValues: { ':p': k.activityPartition(deviceId), ':a': `${kind}#${from}`, ':b': `${kind}#${to}` },
        }),
      ),
    );
    return lists.flat().map(toActivity);
  },

  async getActivity(deviceId, kind, start) {
    const item = await getItem(doc, table, k.activity(deviceId, kind, start));
    return item ? toActivity(item) : undefined;
  },

  async latestActivity(deviceId, kind) {
    const item = await queryFirst(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :k)',
      ExpressionAttributeValues: { ':p': k.activityPartition(deviceId), ':k': `${kind}#` },
      ScanIndexForward: false,
    });
    return item ? toActivity(item) : undefined;
  },
});
