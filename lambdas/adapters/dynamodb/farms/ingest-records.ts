import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { farmsKeys as k } from '../keys';
import { conditional, getItem } from '../query';
import { parseDevice } from './devices';
import type { IngestRecords } from '../../../ports/farms';

/** The ingest's state lives on the device item (`ingest`, with `ingest_n` and the lock version `ingest_v` beside it). */
export const ingestRecords = (doc: DynamoDBDocumentClient, table: string): IngestRecords => ({
  async getDeviceForIngest(deviceId) {
    const item = await getItem(doc, table, k.device(deviceId));
    if (!item) return undefined;
    const ingest = typeof item.ingest === 'string' ? { n: Number(item.ingest_n), v: Number(item.ingest_v ?? item.ingest_n), state: JSON.parse(item.ingest) as unknown } : undefined;
    return { device: parseDevice(item), ingest };
  },

  commitIngest: (deviceId, ingest, expectedV, live) =>
    conditional(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.device(deviceId),
          UpdateExpression: `SET ingest = :s, ingest_n = :n, ingest_v = :v${live ? ', last_updated = :lu, seen_at = :seen, gsi3pk = :active, gsi3sk = :seen' : ''}`,
          ConditionExpression:
            expectedV === undefined ? 'attribute_exists(pk) AND attribute_not_exists(ingest_n)' : 'ingest_v = :expected OR (attribute_not_exists(ingest_v) AND ingest_n = :expected)',
          ExpressionAttributeValues: {
            ':s': JSON.stringify(ingest.state),
            ':n': ingest.n,
            ':v': ingest.v ?? ingest.n,
            ...(expectedV === undefined ? {} : { ':expected': expectedV }),
            // A message is refused for a retired device, so a committed one is active: it (re)joins the seen index.
            ...(live ? { ':lu': live.lastUpdated, ':seen': live.seenAt, ':active': k.activeFleet } : {}),
          },
        }),
      ),
    ),
});
