import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pickupSchema, type Pickup } from '../../../shared/api/actions/farmer-pickup';
import { farmsKeys as k } from './keys';
import { queryAll } from './query';

/**
 * Pickups a farmer entered by hand (farmer §2.14, §3 Pickup), in the Farms table under the farm
 * (`FARM#<id>` / `PICKUP#<UTC datetime>#<vat>`): farm-owned data beside the farm, listed in time order.
 */
export interface PickupRepository {
  /** Stores the pickup; the same vat and time again replaces it (a corrected entry, not a second pickup). */
  putPickup(pickup: Pickup): Promise<void>;
  /** The farm's pickups, oldest first. */
  listPickups(farmId: string): Promise<Pickup[]>;
  /** The farm's pickups at or after `since` (UTC ISO), oldest first: one key-range query (the capacity forecast). */
  listPickupsSince(farmId: string, since: string): Promise<Pickup[]>;
  /** Removes the farm's pickup of this vat and time (UTC ISO); nothing there is not an error. */
  deletePickup(farmId: string, datetime: string, vat: number): Promise<void>;
}

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
