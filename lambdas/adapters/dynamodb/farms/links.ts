import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { farmsKeys as k } from '../keys';
import { getItem, queryAll } from '../query';
import type { FarmLinks } from '../../../ports/farms';

export const farmLinks = (doc: DynamoDBDocumentClient, table: string): FarmLinks => ({
  async linkUserToFarm(userId, farmId) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.farmLink(userId, farmId), ...k.farmLinkIndex(userId, farmId), kind: 'LINK', farm_id: farmId, user_id: userId } }));
  },

  async listFarmIdsOfUser(userId) {
    const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': `USER#${userId}`, ':s': 'FARM#' } });
    return items.map((i) => String(i.farm_id));
  },

  isLinked: async (userId, farmId) => (await getItem(doc, table, k.farmLink(userId, farmId))) !== undefined,
});
