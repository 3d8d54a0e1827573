import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { auditEntrySchema, type AuditArea, type AuditEntry } from '../../../shared/entities/audit';
import { farmsKeys as k } from './keys';

/**
 * The administrative changes (issue 18), in the Farms table: one partition per page
 * (`AUDIT#user`, `AUDIT#farm`), sorted by time, so the newest are one Query. Entries are only
 * ever added.
 */
export interface AuditRepository {
  record(area: AuditArea, entry: AuditEntry): Promise<void>;
  /** The newest `limit` entries, newest first. */
  list(area: AuditArea, limit: number): Promise<AuditEntry[]>;
}

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
