import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIVE_AUTHORIZED_SECONDS, LIVE_CONNECTION_TTL_SECONDS } from '../../../shared/live/protocol';
import type { ConnectionRecord, ConnectionsRepository } from '../../ports/live';

const conn = (id: string) => ({ pk: `CONN#${id}`, sk: 'CONN' });
const live = (farm: string, id: string) => ({ pk: `LIVE#${farm}`, sk: id });
const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + LIVE_CONNECTION_TTL_SECONDS;

export const dynamoConnectionsRepository = (doc: DynamoDBDocumentClient, table: string): ConnectionsRepository => {
  const getConnection = async (connectionId: string): Promise<ConnectionRecord | undefined> => {
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key: conn(connectionId) }));
    if (!Item) return undefined;
    return {
      connectionId,
      userId: String(Item.user_id),
      groups: Array.isArray(Item.groups) ? Item.groups.map(String) : [],
      totp: Item.totp === true,
      ...(typeof Item.farm === 'string' ? { farm: Item.farm } : {}),
    };
  };
  return {
    async putConnection({ connectionId, userId, groups, totp }, now) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...conn(connectionId), user_id: userId, groups: [...groups], totp, expires_at: expiresAt(now) } }));
    },
    getConnection,
    async subscribe(connectionId, farm, now) {
      const found = await getConnection(connectionId);
      if (!found) throw new Error(`no connection ${connectionId}`);
      if (found.farm && found.farm !== farm) await doc.send(new DeleteCommand({ TableName: table, Key: live(found.farm, connectionId) }));
      // `until`: the subscription's authorization; the ingest pushes only while it holds.
      const until = Math.floor(now.getTime() / 1000) + LIVE_AUTHORIZED_SECONDS;
      await doc.send(new PutCommand({ TableName: table, Item: { ...live(farm, connectionId), until, expires_at: expiresAt(now) } }));
      await doc.send(new PutCommand({ TableName: table, Item: { ...conn(connectionId), user_id: found.userId, groups: [...found.groups], totp: found.totp, farm, expires_at: expiresAt(now) } }));
    },
    async removeConnection(connectionId) {
      const found = await getConnection(connectionId);
      if (found?.farm) await doc.send(new DeleteCommand({ TableName: table, Key: live(found.farm, connectionId) }));
      await doc.send(new DeleteCommand({ TableName: table, Key: conn(connectionId) }));
    },
    async listFarmConnections(farm) {
      const ids: string[] = [];
      let start: Record<string, unknown> | undefined;
      const nowSeconds = Math.floor(Date.now() / 1000);
      do {
        const page = await doc.send(
          new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': `LIVE#${farm}` }, ExclusiveStartKey: start }),
        );
        // DynamoDB deletes expired items within a few days, not at once: an expired one is gone
        // already. A subscription not renewed in time (refused, or the browser gone) gets nothing.
        for (const item of page.Items ?? []) if (Number(item.expires_at) > nowSeconds && Number(item.until) > nowSeconds) ids.push(String(item.sk));
        start = page.LastEvaluatedKey;
      } while (start);
      return ids;
    },
  };
};
