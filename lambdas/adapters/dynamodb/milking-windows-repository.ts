import { BatchGetCommand, PutCommand, type BatchGetCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { farmsKeys as k } from './keys';
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
    const ids = [...new Set(farmIds)];
    const found: MilkingWindow[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = ids.slice(i, i + 100).map((id) => k.milkingWindow(id));
      while (pending && pending.length > 0) {
        const res: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
        found.push(...(res.Responses?.[table] ?? []).map((item) => storedSchema.parse(item)));
        pending = res.UnprocessedKeys?.[table]?.Keys;
      }
    }
    return found;
  },
  async put(window) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.milkingWindow(window.farm_id), kind: 'MILKING_WINDOW', ...window } }));
  },
});
