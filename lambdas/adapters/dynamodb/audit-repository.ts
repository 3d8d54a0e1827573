import { PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { auditEntrySchema, type AuditArea, type AuditEntry } from '../../../shared/entities/audit';
import { farmsKeys as k } from './keys';
import type { AuditedChanges, AuditedWrite, AuditRepository } from '../../ports/audit';

const entryItem = (area: AuditArea, entry: AuditEntry) => ({ ...k.audit(area, entry.at, randomUUID()), kind: 'AUDIT', ...entry });

export const dynamoAuditRepository = (doc: DynamoDBDocumentClient, table: string): AuditRepository => ({
  async record(area, entry) {
    await doc.send(new PutCommand({ TableName: table, Item: entryItem(area, entry), ConditionExpression: 'attribute_not_exists(pk)' }));
  },
  async list(area, limit, cursor) {
    const pk = k.auditPartition(area);
    const res = await doc.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': pk },
        ScanIndexForward: false,
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: { pk, sk: cursor } } : {}),
      }),
    );
    const next = res.LastEvaluatedKey?.sk;
    return { entries: (res.Items ?? []).map((i) => auditEntrySchema.parse(i)), ...(typeof next === 'string' ? { cursor: next } : {}) };
  },
});

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** An UpdateItem of named fields on an item that exists, optionally only while `field` still holds `before`. */
const update = (table: string, Key: Record<string, string>, set: Record<string, unknown>, guard?: { field: string; before: unknown }, remove: readonly string[] = []): TransactItem => {
  const names = Object.keys(set);
  const removeText = remove.length ? ` REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : '';
  return {
    Update: {
      TableName: table,
      Key,
      UpdateExpression: `SET ${names.map((f) => `#${f} = :${f}`).join(', ')}${removeText}`,
      ConditionExpression: guard ? `attribute_exists(pk) AND #${guard.field} = :before` : 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries([...names, ...remove, ...(guard ? [guard.field] : [])].map((f) => [`#${f}`, f])),
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((f) => [`:${f}`, set[f]])), ...(guard ? { ':before': guard.before } : {}) },
    },
  };
};

/** The items one operator write changes (keys from keys.ts, fields as the repositories store them). */
const itemsOf = (table: string, w: AuditedWrite): TransactItem[] => {
  switch (w.kind) {
    case 'farmFlag': {
      // An operator's API status off holds the sync against Watchman's automatic on; on releases it.
      const hold = w.flag === 'fonterra_api_status' ? { fonterra_sync_held: !w.value } : {};
      return [update(table, k.farm(w.farmId), { [w.flag]: w.value, ...hold }, { field: w.flag, before: w.before })];
    }
    case 'herd':
      return [
        w.herd.enabled
          ? update(table, k.userProfile(w.userId), { is_herd_enabled: 1, token_id: w.herd.tokenId }, { field: 'is_herd_enabled', before: w.before })
          : update(table, k.userProfile(w.userId), { is_herd_enabled: 0 }, { field: 'is_herd_enabled', before: w.before }, ['token_id']),
      ];
    case 'farmPackage':
      return [update(table, k.farm(w.farmId), { package: w.package }, { field: 'package', before: w.before })];
    case 'unitLowConnectivity':
      return [update(table, k.unitId(w.imei), { low_connectivity: w.value }, { field: 'low_connectivity', before: w.before })];
    case 'deviceStatus':
      return [update(table, k.device(w.deviceId), { status: w.status }, { field: 'status', before: w.before })];
    case 'deviceName': {
      const d = w.device;
      return [
        update(table, k.device(d._id), { name: w.name, gsi2sk: w.name }, { field: 'name', before: d.name }),
        { Put: { TableName: table, Item: { ...k.thing(w.name), kind: 'THING', owner: 'device', device_id: d._id } } },
        { Put: { TableName: table, Item: { ...k.deviceListing(d._id), gsi1pk: k.allOf('DEVICE'), gsi1sk: w.name } } },
      ];
    }
    case 'vatConfig':
      return [update(table, k.device(w.deviceId), { ...w.config })];
    case 'milkingWindow':
      return [{ Put: { TableName: table, Item: { ...k.milkingWindow(w.window.farm_id), kind: 'MILKING_WINDOW', ...w.window } } }];
    case 'watchmanSettings':
      return [{ Put: { TableName: table, Item: { ...k.watchmanSettings, ...w.settings } } }];
  }
};

/**
 * One TransactWriteItems per change: the writes and the audit entry land together or not at all
 * (decision 050). A cancelled transaction whose reasons are failed conditions is a 'conflict';
 * any other refusal (throttling, a fault) is thrown, and nothing was written either way.
 */
export const dynamoAuditedChanges = (doc: DynamoDBDocumentClient, table: string): AuditedChanges => ({
  async commit(area, entry, writes) {
    const TransactItems = [...writes.flatMap((w) => itemsOf(table, w)), { Put: { TableName: table, Item: entryItem(area, entry), ConditionExpression: 'attribute_not_exists(pk)' } }];
    try {
      await doc.send(new TransactWriteCommand({ TransactItems }));
      return 'done';
    } catch (err) {
      if (err instanceof TransactionCanceledException && (err.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')) return 'conflict';
      throw err;
    }
  },
});
