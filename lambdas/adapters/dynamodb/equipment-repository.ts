import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { equipmentItemSchema } from '../../../shared/entities/equipment';
import { farmsKeys as k } from './keys';
import type { EquipmentRepository } from '../../ports/equipment';

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
