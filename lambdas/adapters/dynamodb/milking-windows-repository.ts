import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { farmsKeys as k } from './keys';
import { batchGet } from './query';
import type { MilkingWindow, MilkingWindowsRepository } from '../../ports/milking-windows';

const storedSchema = z.object({
  farm_id: z.string(),
  fonterra_id: z.string(),
  buffer_duration: z.number(),
  end_of_milking: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});

export const dynamoMilkingWindowsRepository = (doc: DynamoDBDocumentClient, table: string): MilkingWindowsRepository => ({
  async list(farmIds) {
    const found: MilkingWindow[] = [];
    await batchGet(doc, table, [...new Set(farmIds)].map((id) => k.milkingWindow(id)), (item) => found.push(storedSchema.parse(item)));
    return found;
  },
  async put(window) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.milkingWindow(window.farm_id), kind: 'MILKING_WINDOW', ...window } }));
  },
});
