import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys as k } from '../keys';
import { guarded, queryFirst } from '../query';
import { epochSeconds, READING_TTL_DAYS } from './readings';
import type { ReplaySnapshots } from '../../../ports/readings';

export const replaySnapshots = (doc: DynamoDBDocumentClient, table: string): ReplaySnapshots => ({
  async getSnapshotAtOrBefore(deviceId, iso) {
    const item = await queryFirst(doc, table, {
      KeyConditionExpression: 'pk = :p AND sk <= :t',
      ExpressionAttributeValues: { ':p': k.snapshotPartition(deviceId), ':t': iso },
      ScanIndexForward: false,
    });
    return item ? { hour: String(item.sk), state: JSON.parse(String(item.state)) as unknown } : undefined;
  },

  async putSnapshot(deviceId, hour, state, n) {
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.snapshot(deviceId, hour), state: JSON.stringify(state), _n: n, expires_at: epochSeconds(`${hour}:00:00.000Z`, READING_TTL_DAYS) },
          ConditionExpression: 'attribute_not_exists(#n) OR #n <= :n',
          ExpressionAttributeNames: { '#n': '_n' },
          ExpressionAttributeValues: { ':n': n },
        }),
      ),
    );
  },
});
