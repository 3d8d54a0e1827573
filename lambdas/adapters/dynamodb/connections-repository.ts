import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIVE_CONNECTION_TTL_SECONDS } from '../../../shared/live/protocol';

/**
 * The live-updates WebSocket's connections (issue 26), in the Connections table: the connection
 * (pk `CONN#<id>`, sk `CONN`: its user and the farm it watches) and, per farm, one item per
 * watching connection (pk `LIVE#<farm>`, sk the connection id), so the ingest finds a farm's
 * connections with one Query. Both expire with API Gateway's 2-hour connection limit.
 */
export interface ConnectionRecord {
  readonly connectionId: string;
  readonly userId: string;
  /** The token's Cognito groups and TOTP claim at $connect: the subscription's farm check needs the caller's role. */
  readonly groups: readonly string[];
  readonly totp: boolean;
  readonly farm?: string;
}

export interface ConnectionsRepository {
  putConnection(record: Omit<ConnectionRecord, 'farm'>, now: Date): Promise<void>;
  getConnection(connectionId: string): Promise<ConnectionRecord | undefined>;
  /** Watches `farm` from now on (a connection watches one farm: the previous one is dropped). */
  subscribe(connectionId: string, farm: string, now: Date): Promise<void>;
  /** The connection and its farm's item. */
  removeConnection(connectionId: string): Promise<void>;
  listFarmConnections(farm: string): Promise<string[]>;
}

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
      await doc.send(new PutCommand({ TableName: table, Item: { ...live(farm, connectionId), expires_at: expiresAt(now) } }));
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
        // DynamoDB deletes expired items within a few days, not at once: an expired one is gone already.
        for (const item of page.Items ?? []) if (Number(item.expires_at) > nowSeconds) ids.push(String(item.sk));
        start = page.LastEvaluatedKey;
      } while (start);
      return ids;
    },
  };
};
