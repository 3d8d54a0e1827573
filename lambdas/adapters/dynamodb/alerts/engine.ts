import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AlertEngineState } from '../../../../shared/alerts/engine-state';
import { alertsKeys as k } from '../keys';
import { conditional, getItem, queryGsi1 } from '../query';
import type { AlertEngineStore, OutboxAlert } from '../../../ports/alerts';

export const alertEngineStore = (doc: DynamoDBDocumentClient, table: string): AlertEngineStore => ({
  async getEngine(deviceId) {
    const item = await getItem(doc, table, k.engine(deviceId));
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
    const items = await queryGsi1(doc, table, 'ENGINE');
    return items.map((i) => ({ device_id: String(i.device_id), farm_id: String(i.farm_id) }));
  },
});
