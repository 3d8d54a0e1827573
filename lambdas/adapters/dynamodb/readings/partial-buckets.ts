import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys as k } from '../keys';
import { epochSeconds } from './readings';
import type { PartialBuckets } from '../../../ports/readings';

/** A drop marker outlives its day by a little: by then the day bucket has replaced it. */
const partialExpiry = (day: string) => epochSeconds(`${day}T00:00:00.000Z`, 3);

export const partialBuckets = (doc: DynamoDBDocumentClient, table: string): PartialBuckets => ({
  async dropPartial(deviceId, day) {
    await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: k.partialBucket(deviceId, day),
        UpdateExpression: 'SET #g = if_not_exists(#g, :zero) + :one, expires_at = :exp REMOVE #data, #c, through',
        ExpressionAttributeNames: { '#g': 'gen', '#data': 'data', '#c': 'count' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':exp': partialExpiry(day) },
      }),
    );
  },
});
