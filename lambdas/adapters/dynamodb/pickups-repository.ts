import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pickupSchema } from '../../../shared/api/actions/farmer-pickup';
import { farmsKeys as k } from './keys';
import { queryAll } from './query';
import type { PickupRepository } from '../../ports/pickups';

export const dynamoPickupRepository = (doc: DynamoDBDocumentClient, table: string): PickupRepository => ({
  async putPickup(pickup) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.pickup(pickup.farm_id, pickup.datetime, pickup.vat), kind: 'PICKUP', ...pickup } }));
  },
  async listPickups(farmId) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': k.farm(farmId).pk, ':s': k.pickupPrefix },
    });
    return items.map((item) => pickupSchema.parse(item));
  },
  async listPickupsSince(farmId, since) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':p': k.farm(farmId).pk, ':from': `${k.pickupPrefix}${since}`, ':to': `${k.pickupPrefix}~` },
    });
    return items.map((item) => pickupSchema.parse(item));
  },
  async deletePickup(farmId, datetime, vat) {
    await doc.send(new DeleteCommand({ TableName: table, Key: k.pickup(farmId, datetime, vat) }));
  },
});
