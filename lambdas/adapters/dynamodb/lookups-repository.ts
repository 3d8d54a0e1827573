import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { milkLookupSchema } from '../../../shared/api/actions/milk-quality';
import { GSI1 } from '../../../shared/data/tables';
import { farmsKeys as k } from './keys';
import type { LookupRepository } from '../../ports/lookups';

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
