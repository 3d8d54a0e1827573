import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIVE_AUTHORIZED_SECONDS, LIVE_CONNECTION_TTL_SECONDS } from '../../../shared/live/protocol';
import type { ConnectionsRepository } from '../../ports/live';
import { isConditionFailure } from './query';

const conn = (id: string) => ({ pk: `CONN#${id}`, sk: 'CONN' });
const live = (farm: string, id: string) => ({ pk: `LIVE#${farm}`, sk: id });
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const expiresAt = (now: Date) => seconds(now) + LIVE_CONNECTION_TTL_SECONDS;

export const dynamoConnectionsRepository = (doc: DynamoDBDocumentClient, table: string): ConnectionsRepository => {
  const farmOf = async (connectionId: string): Promise<string | undefined> => {
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key: conn(connectionId), ProjectionExpression: 'farm' }));
    return typeof Item?.farm === 'string' ? Item.farm : undefined;
  };
  /** Extends the person's subscription of the farm; false when there is none to extend (a first subscription, a move, another person). */
  const renew = async (connectionId: string, userId: string, farm: string, until: number): Promise<boolean> => {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: live(farm, connectionId),
          UpdateExpression: 'SET #until = :until',
          ConditionExpression: 'user_id = :user',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':until': until, ':user': userId },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };
  return {
    async watch(connectionId, userId, farm, now) {
      // `until`: the subscription's authorization; the ingest pushes only while it holds.
      const until = seconds(now) + LIVE_AUTHORIZED_SECONDS;
      if (await renew(connectionId, userId, farm, until)) return;
      const previous = await farmOf(connectionId);
      if (previous && previous !== farm) await doc.send(new DeleteCommand({ TableName: table, Key: live(previous, connectionId) }));
      // The connection first: a stop between the two leaves a connection that gets no pushes until
      // its next renewal writes the farm's item, never a farm item removeConnection cannot find.
      await doc.send(new PutCommand({ TableName: table, Item: { ...conn(connectionId), user_id: userId, farm, expires_at: expiresAt(now) } }));
      await doc.send(new PutCommand({ TableName: table, Item: { ...live(farm, connectionId), user_id: userId, until, expires_at: expiresAt(now) } }));
    },
    async removeConnection(connectionId) {
      const farm = await farmOf(connectionId);
      if (farm) await doc.send(new DeleteCommand({ TableName: table, Key: live(farm, connectionId) }));
      await doc.send(new DeleteCommand({ TableName: table, Key: conn(connectionId) }));
    },
    async listFarmConnections(farm) {
      const ids: string[] = [];
      let start: Record<string, unknown> | undefined;
      const nowSeconds = seconds(new Date());
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
