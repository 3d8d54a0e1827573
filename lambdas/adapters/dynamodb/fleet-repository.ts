import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1, GSI2, GSI3 } from '../../../shared/data/tables';
import { installLogEntrySchema } from '../../../shared/entities/install';
import { logTypeMatches } from '../../../shared/entities/install';
import { alertsKeys, farmsKeys as k } from './keys';
import { queryAll, type Item } from './query';
import { utcHour } from './alerts/fleet-counters';
import type { AlertHour, FleetLookups, FleetStatsReader, IngestCounters, IngestHour, LookupPage } from '../../ports/fleet';

/** A count of a key range of an index (Select COUNT pages through keys only; no item leaves the table). */
const countOf = async (doc: DynamoDBDocumentClient, table: string, input: { IndexName: string; KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<number> => {
  let count = 0;
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await doc.send(new QueryCommand({ TableName: table, ...input, Select: 'COUNT', ExclusiveStartKey }));
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
};

/**
 * One page of an index's sort keys starting with `prefix`, after the sort key `after` (the last
 * page's last): BETWEEN keeps it one key condition, so the page is a bounded read.
 */
const prefixPage = async (
  doc: DynamoDBDocumentClient,
  table: string,
  index: { name: string; pk: string; sk: string },
  pkValue: string,
  prefix: string,
  limit: number,
  after: string | undefined,
): Promise<{ items: Item[]; next?: string }> => {
  const from = after && after.startsWith(prefix) ? `${after}\u0000` : prefix;
  const page = await doc.send(
    new QueryCommand({
      TableName: table,
      IndexName: index.name,
      KeyConditionExpression: `${index.pk} = :p AND ${index.sk} BETWEEN :from AND :to`,
      ExpressionAttributeValues: { ':p': pkValue, ':from': from, ':to': `${prefix}\uffff` },
      Limit: limit + 1,
    }),
  );
  const items = (page.Items ?? []) as Item[];
  const shown = items.slice(0, limit);
  return { items: shown, ...(items.length > limit ? { next: String(shown[shown.length - 1]?.[index.sk]) } : {}) };
};

const numbered = (item: Item, letter: 't' | 'f') =>
  Object.entries(item)
    .filter(([name]) => new RegExp(`^${letter}\\d+$`).test(name))
    .map(([name, value]) => [Number(name.slice(1)), value] as const);

/** The overview's reads (decision 055): the seen index and install log in the Farms table, the counters in the Alerts table. */
export const dynamoFleetStats = (doc: DynamoDBDocumentClient, tables: { farms: string; alerts: string }): FleetStatsReader => ({
  async unitsBySeen(since, limit) {
    const seen = (cond: string, values: Record<string, unknown>) => ({ IndexName: GSI3, KeyConditionExpression: `gsi3pk = :p AND ${cond}`, ExpressionAttributeValues: { ':p': k.activeFleet, ...values } });
    const [reporting, silent, oldest] = await Promise.all([
      countOf(doc, tables.farms, seen('gsi3sk >= :since', { ':since': since })),
      countOf(doc, tables.farms, seen('gsi3sk < :since', { ':since': since })),
      doc.send(new QueryCommand({ TableName: tables.farms, ...seen('gsi3sk < :since', { ':since': since }), Limit: limit })),
    ]);
    const units = ((oldest.Items ?? []) as Item[]).map((i) => ({
      _id: String(i._id),
      name: String(i.name ?? ''),
      farm_id: String(i.farm_id ?? ''),
      seen_at: typeof i.seen_at === 'string' ? i.seen_at : null,
    }));
    return { reporting, silent, oldest: units };
  },

  async alertHours(fromHour) {
    const items = await queryAll(doc, tables.alerts, {
      KeyConditionExpression: 'pk = :p AND sk >= :from',
      ExpressionAttributeValues: { ':p': alertsKeys.statsAlertsPartition, ':from': fromHour },
    });
    return items.map(
      (i): AlertHour => ({
        hour: String(i.sk),
        counts: new Map(numbered(i, 't').map(([type, v]) => [type, Number(v)])),
        farms: new Map(numbered(i, 'f').map(([type, v]) => [type, v instanceof Set ? [...(v as Set<string>)] : []])),
      }),
    );
  },

  async smsSent(month) {
    const [item] = await queryAll(doc, tables.alerts, { KeyConditionExpression: 'pk = :p AND sk = :s', ExpressionAttributeValues: { ':p': alertsKeys.statsSms(month).pk, ':s': month } });
    return Math.max(0, Number(item?.sent ?? 0));
  },

  async ingestHours(fromHour) {
    const items = await queryAll(doc, tables.alerts, {
      KeyConditionExpression: 'pk = :p AND sk >= :from',
      ExpressionAttributeValues: { ':p': alertsKeys.statsIngestPartition, ':from': fromHour },
    });
    return items.map(
      (i): IngestHour => ({
        hour: String(i.sk),
        lastBatchAt: typeof i.last_batch_at === 'string' ? i.last_batch_at : null,
        lastIteratorAgeMs: typeof i.last_iterator_age_ms === 'number' ? i.last_iterator_age_ms : null,
        retried: Number(i.retried ?? 0),
      }),
    );
  },

  async installsSince(since, logType) {
    // A week's entries of the install log (gsi1 ALL#INSTALL, by creation time): a few per install.
    const items = await queryAll(doc, tables.farms, {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk >= :since',
      ExpressionAttributeValues: { ':p': k.installsAll, ':since': since },
    });
    return items.map((i) => installLogEntrySchema.shape.type.safeParse(i.type)).filter((t) => t.success && logTypeMatches(logType, t.data)).length;
  },
});

/** The search's lookups (decision 056): farm names in gsi1, device names in the fleet index, emails in the user listing. */
export const dynamoFleetLookups = (doc: DynamoDBDocumentClient, table: string): FleetLookups => {
  const ids = (page: { items: Item[]; next?: string }, id: (i: Item) => string): LookupPage<string> => ({ items: page.items.map(id), ...(page.next ? { next: page.next } : {}) });
  const gsi1 = { name: GSI1, pk: 'gsi1pk', sk: 'gsi1sk' };
  return {
    farmsByName: async (prefix, limit, after) =>
      ids(await prefixPage(doc, table, gsi1, k.farmNames, prefix.trim().toLowerCase(), limit, after), (i) => String(i.pk).slice('FARM#'.length)),
    devicesByName: async (prefix, limit, after) => ids(await prefixPage(doc, table, { name: GSI2, pk: 'gsi2pk', sk: 'gsi2sk' }, k.fleet, prefix, limit, after), (i) => String(i._id)),
    usersByEmail: async (prefix, limit, after) =>
      ids(await prefixPage(doc, table, gsi1, k.allOf('USER'), prefix.trim().toLowerCase(), limit, after), (i) => String(i.pk).slice('USER#'.length)),
  };
};

const HOUR_TTL_S = 2 * 86_400;

/** The ingest's own counters (decision 055): one item per UTC hour, updated once per batch. */
export const dynamoIngestCounters = (doc: DynamoDBDocumentClient, alertsTable: string): IngestCounters => ({
  async recordBatch({ at, iteratorAgeMs, retried }) {
    await doc.send(
      new UpdateCommand({
        TableName: alertsTable,
        Key: alertsKeys.statsIngest(utcHour(at)),
        UpdateExpression: `ADD batches :one, retried :retried SET last_batch_at = :at, expires_at = :exp${iteratorAgeMs === null ? '' : ', last_iterator_age_ms = :age'}`,
        ExpressionAttributeValues: {
          ':one': 1,
          ':retried': retried,
          ':at': at.toISOString(),
          ':exp': Math.floor(at.getTime() / 1000) + HOUR_TTL_S,
          ...(iteratorAgeMs === null ? {} : { ':age': iteratorAgeMs }),
        },
      }),
    );
  },
});
