import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { auditEntrySchema } from '../../../shared/entities/audit';
import { farmsKeys as k } from './keys';
import type { AuditRepository } from '../../ports/audit';

export const dynamoAuditRepository = (doc: DynamoDBDocumentClient, table: string): AuditRepository => ({
  async record(area, entry) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.audit(area, entry.at, randomUUID()), kind: 'AUDIT', ...entry } }));
  },
  async list(area, limit) {
    const res = await doc.send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.auditPartition(area) }, ScanIndexForward: false, Limit: limit }),
    );
    return (res.Items ?? []).map((i) => auditEntrySchema.parse(i));
  },
});
