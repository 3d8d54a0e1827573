import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { equipmentItemSchema, type EquipmentItem } from '../../../shared/entities/equipment';
import { farmsKeys as k } from './keys';

/**
 * A farm's equipment items (farmer §2.13, §3 Equipment item), in the Farms table beside the farm
 * (`FARM#<id>` / `EQUIPMENT`). The whole set is one item: EQUIPMENT_UPDATE replaces it with one
 * PutItem, so a reader never sees half of an old set and half of a new one (dynalite has no
 * transactions, and none is needed).
 */
export interface EquipmentRepository {
  /** The stored set, or undefined when the farm's plant was never described. */
  getEquipment(farmId: string): Promise<EquipmentItem[] | undefined>;
  /** Replaces the farm's set. */
  putEquipment(farmId: string, items: readonly EquipmentItem[], by: { readonly userId: string; readonly at: string }): Promise<void>;
}

const storedSchema = z.object({ items: z.array(equipmentItemSchema) });

export const dynamoEquipmentRepository = (doc: DynamoDBDocumentClient, table: string): EquipmentRepository => ({
  async getEquipment(farmId) {
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key: k.equipment(farmId) }));
    return Item ? storedSchema.parse(Item).items : undefined;
  },
  async putEquipment(farmId, items, by) {
    await doc.send(
      new PutCommand({
        TableName: table,
        Item: { ...k.equipment(farmId), kind: 'EQUIPMENT', farm_id: farmId, items: [...items], updated_by: by.userId, updated_at: by.at },
      }),
    );
  },
});
