import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { milkLookupSchema, type MilkLookup } from '../../../shared/api/actions/milk-quality';
import { GSI1 } from '../../../shared/data/tables';
import { farmsKeys as k } from './keys';

/**
 * Who looked at which farm's milk data (issue 23: every lookup by Milk Quality or Westlands staff,
 * or an Admin, is kept and visible to Admins). In the Farms table under `LOOKUP#<farmId>`, listed
 * newest first through gsi1 `ALL#LOOKUP`.
 */
export interface LookupRepository {
  putLookup(lookup: MilkLookup): Promise<void>;
  /** The newest `limit` lookups of every farm, newest first. */
  listLookups(limit: number): Promise<MilkLookup[]>;
}

export const dynamoLookupRepository = (doc: DynamoDBDocumentClient, table: string): LookupRepository => ({
  async putLookup(lookup) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.lookup(lookup.farm_id, lookup.at, lookup.user_id), kind: 'LOOKUP', ...lookup } }));
  },
  async listLookups(limit) {
    const page = await doc.send(
      new QueryCommand({
        TableName: table,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :p',
        ExpressionAttributeValues: { ':p': k.lookupsAll },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => milkLookupSchema.parse(item));
  },
});
