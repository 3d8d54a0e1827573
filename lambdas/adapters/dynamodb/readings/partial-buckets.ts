import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Reading } from '../../../../shared/telemetry/reading';
import { readingsKeys as k } from '../keys';
import { guarded } from '../query';
import { encodeBucket } from './bucket-data';
import { epochSeconds } from './readings';
import type { PartialBuckets } from '../../../ports/readings';

/** Readings this close to the newest are left out of a partial bucket (they may still arrive out of order). */
const PARTIAL_SAFETY_MS = 15 * 60_000;
/** A partial bucket outlives its day by a little: by then the day bucket has replaced it. */
const partialExpiry = (day: string) => epochSeconds(`${day}T00:00:00.000Z`, 3);

/** The range reads' write of a partial bucket (adapter-internal: the port offers only the ingest's drop). */
export interface PartialWriter {
  /**
   * Compacts an open day's readings from its start up to 15 minutes before the last one (a reading
   * late by less than that still lands in the tail that is read after the partial bucket). A reading
   * later than that, older than readings already stored, shows once the partial is rewritten or the
   * day bucket is written. Conditional: never replaces a partial that holds more readings, nor one
   * the ingest dropped since `gen` was read (the generation of the item as the read found it;
   * undefined: no item).
   */
  putPartial(deviceId: string, day: string, readings: readonly Reading[], gen: number | undefined): Promise<void>;
}

export const partialWriter = (doc: DynamoDBDocumentClient, table: string): PartialWriter => ({
  async putPartial(deviceId, day, readings, gen) {
    const last = readings[readings.length - 1];
    if (!last) return;
    const through = new Date(Date.parse(last.published_at) - PARTIAL_SAFETY_MS).toISOString();
    const kept = readings.filter((r) => r.published_at <= through);
    if (kept.length === 0) return;
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...k.partialBucket(deviceId, day),
            device_id: deviceId,
            count: kept.length,
            through: (kept[kept.length - 1] as Reading).published_at,
            data: encodeBucket(kept),
            expires_at: partialExpiry(day),
            ...(gen === undefined ? {} : { gen }),
          },
          ConditionExpression: `(attribute_not_exists(#c) OR #c < :c) AND ${gen === undefined ? 'attribute_not_exists(#g)' : '#g = :g'}`,
          ExpressionAttributeNames: { '#c': 'count', '#g': 'gen' },
          ExpressionAttributeValues: { ':c': kept.length, ...(gen === undefined ? {} : { ':g': gen }) },
        }),
      ),
    );
  },
});

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
