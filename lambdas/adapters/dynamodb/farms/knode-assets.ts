import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { knodeAssetSchema } from '../../../../shared/entities/farm';
import { farmsKeys as k } from '../keys';
import { guarded, queryAll } from '../query';
import { strip } from './stored';
import type { KnodeAssets } from '../../../ports/farms';

export const knodeAssets = (doc: DynamoDBDocumentClient, table: string): KnodeAssets => ({
  async putKnodeAsset(farmId, asset) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.knodeAsset(farmId, asset.asset_name), kind: 'KNODE', ...asset } }));
  },

  async updateKnodeAsset(farmId, asset) {
    await guarded(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.knodeAsset(farmId, asset.asset_name), kind: 'KNODE', ...asset },
          ConditionExpression: 'attribute_not_exists(published_at) OR published_at < :t',
          ExpressionAttributeValues: { ':t': asset.published_at },
        }),
      ),
    );
  },

  async listKnodeAssets(farmId) {
    const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': 'KNODE#' } });
    return items.map((i) => knodeAssetSchema.parse(strip(i)));
  },
});
