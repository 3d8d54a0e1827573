import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { installLogEntrySchema, logTypeMatches, unitSchema } from '../../../shared/entities/install';
import { dynamoInstallRuns } from './install-runs';
import { farmsKeys as k } from './keys';
import { queryAll } from './query';
import type { InstallRepository } from '../../ports/installs';

const strip = (item: Record<string, unknown>) => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, kind: _kind, ...rest } = item;
  return rest;
};

export const dynamoInstallRepository = (doc: DynamoDBDocumentClient, table: string): InstallRepository => ({
  ...dynamoInstallRuns(doc, table),
  async getUnit(imei) {
    const res = await doc.send(new GetCommand({ TableName: table, Key: k.unitId(imei) }));
    return res.Item ? unitSchema.parse(strip(res.Item)) : undefined;
  },
  async unitOfFarm(farmId) {
    const [item] = await queryAll(doc, table, {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
      ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': 'UNIT#' },
    });
    return item ? unitSchema.parse(strip(item)) : undefined;
  },
  async putUnit(unit) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.unit(unit.imei, unit.farm_id), kind: 'UNIT', ...unit } }));
  },
  async deleteUnit(imei) {
    await doc.send(new DeleteCommand({ TableName: table, Key: k.unitId(imei) }));
  },
  async putEntry(entry) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.install(entry.supply_number, entry.created_at, entry._id), kind: 'INSTALL', ...entry } }));
  },
  async listEntries({ supplyNumber, logType, page, pageSize }) {
    // The log is small (a few entries per install) and its filter is on the entry's type, so a
    // page is cut from the matching entries in memory; count is what the pager needs.
    const items = supplyNumber
      ? await queryAll(doc, table, { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': `INSTALL#${supplyNumber.toUpperCase()}` }, ScanIndexForward: false })
      : await queryAll(doc, table, { IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': k.installsAll }, ScanIndexForward: false });
    const matching = items.map((i) => installLogEntrySchema.parse(strip(i))).filter((e) => logTypeMatches(logType, e.type));
    return { count: matching.length, installs: matching.slice(page * pageSize, (page + 1) * pageSize) };
  },
});
