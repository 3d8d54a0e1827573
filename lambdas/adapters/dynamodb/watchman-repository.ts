import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { watchmanCaseSchema, watchmanRunSchema } from '../../../shared/watchman/records';
import type { WatchmanSettings } from '../../../shared/watchman/settings';
import { farmsKeys as k } from './keys';
import { conditional, guarded, queryAll, unlessConditionFails } from './query';
import type { WatchmanRepository } from '../../ports/watchman';

const strip = (i: Record<string, unknown>) => {
  const { pk: _p, sk: _s, expires_at: _e, ...rest } = i;
  return rest;
};

/**
 * Runs and closed cases are history: DynamoDB's TTL deletes them 400 days after they were written
 * (a year and a season of hourly runs stays listable; the Farms table's TTL touches nothing else).
 */
export const WATCHMAN_HISTORY_DAYS = 400;
const historyExpiry = (iso: string) => Math.floor(Date.parse(iso) / 1000) + WATCHMAN_HISTORY_DAYS * 86_400;

export const dynamoWatchmanRepository = (doc: DynamoDBDocumentClient, table: string): WatchmanRepository => ({
  async getSettings() {
    const item = (await doc.send(new GetCommand({ TableName: table, Key: k.watchmanSettings }))).Item;
    return item ? (strip(item) as Partial<WatchmanSettings>) : undefined;
  },
  async putSettings(settings) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.watchmanSettings, ...settings } }));
  },
  async acquireLease(runId, now, ttlMs) {
    // A run of the code from before the lease had its own partition holds it under the settings'
    // key until it ends or expires: it is waited for (read only: the job may not write there).
    const before = (await doc.send(new GetCommand({ TableName: table, Key: k.watchmanLeaseBefore }))).Item;
    if (typeof before?.until_ms === 'number' && before.until_ms >= now.getTime()) return false;
    return conditional(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.watchmanLease, run_id: runId, until_ms: now.getTime() + ttlMs },
          ConditionExpression: 'attribute_not_exists(pk) OR until_ms < :now',
          ExpressionAttributeValues: { ':now': now.getTime() },
        }),
      ),
    );
  },
  async releaseLease(runId) {
    // Another run holds the lease by now (or none does): nothing of this run's is left to release.
    await guarded(() => doc.send(new DeleteCommand({ TableName: table, Key: k.watchmanLease, ConditionExpression: 'run_id = :r', ExpressionAttributeValues: { ':r': runId } })));
  },
  async putRun(run) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.watchmanRun(run.started_at, run._id), ...run, expires_at: historyExpiry(run.started_at) } }));
  },
  async listRuns(page, size) {
    // Newest first, reading only as far as the page asked for.
    const items: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const res = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': k.watchmanRunPartition },
          ScanIndexForward: false,
          Limit: (page + 1) * size - items.length,
          ExclusiveStartKey,
        }),
      );
      items.push(...((res.Items ?? []) as Record<string, unknown>[]));
      ExclusiveStartKey = res.LastEvaluatedKey;
    } while (ExclusiveStartKey && items.length < (page + 1) * size);
    return items.slice(page * size).map((i) => watchmanRunSchema.parse(strip(i)));
  },
  async countRuns() {
    // A COUNT query reads keys only.
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const res = await doc.send(
        new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.watchmanRunPartition }, Select: 'COUNT', ExclusiveStartKey: start }),
      );
      count += res.Count ?? 0;
      start = res.LastEvaluatedKey;
    } while (start);
    return count;
  },
  async listOpenCases() {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': k.watchmanCasePartition, ':s': 'OPEN#' },
    });
    return items.map((i) => watchmanCaseSchema.parse(strip(i)));
  },
  async openCase(c) {
    return unlessConditionFails(
      async () => {
        await doc.send(new PutCommand({ TableName: table, Item: { ...k.watchmanOpenCase(c.farm_id, c.vat, c.check), ...c }, ConditionExpression: 'attribute_not_exists(pk)' }));
        return 'created' as const;
      },
      () => 'exists' as const,
    );
  },
  async closeCase(c, closedAt) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.watchmanClosedCase(c.farm_id, c.vat, c.check, c.opened_at), ...c, closed_at: closedAt, expires_at: historyExpiry(closedAt) } }));
    await doc.send(new DeleteCommand({ TableName: table, Key: k.watchmanOpenCase(c.farm_id, c.vat, c.check) }));
  },
});
