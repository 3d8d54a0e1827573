import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { docketSchema } from '../../../shared/dairy-company/payloads';
import { farmsKeys as k } from './keys';
import { guarded, queryAll, unlessConditionFails } from './query';
import type { DairyEvent, StoredDocket, DairyRepository } from '../../ports/dairy';

const EVENT_FIELDS = ['key', 'farm_id', 'supplier_id', 'vat', 'kind', 'event_at', 'payload', 'state', 'next_at', 'attempts'] as const;
const toEvent = (item: Record<string, unknown>): DairyEvent => Object.fromEntries(EVENT_FIELDS.map((f) => [f, item[f]])) as unknown as DairyEvent;
const DOCKET_FIELDS = ['farm_id', 'DocketID', 'VatID', 'PickupDateTime', 'Volume', 'Temperature'] as const;
const toDocket = (item: Record<string, unknown>): StoredDocket => Object.fromEntries(DOCKET_FIELDS.map((f) => [f, item[f]])) as unknown as StoredDocket;

export const dynamoDairyRepository = (doc: DynamoDBDocumentClient, table: string): DairyRepository => ({
  async addEvent(event) {
    const key = k.dairyEvent(event.farm_id, event.vat, event.kind, event.event_at);
    return unlessConditionFails(
      async () => {
        await doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...key, ...k.dairyPending(event.next_at, key.pk, key.sk), kind_of: 'DAIRY_EVENT', ...event },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return 'created' as const;
      },
      () => 'exists' as const,
    );
  },
  async listDue(now) {
    const items = await queryAll(doc, table, {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':p': k.dairyPendingIndex, ':now': `${now}~` },
    });
    return items.map(toEvent);
  },
  async recordAttempt(event, attempt, outcome) {
    const key = k.dairyEvent(event.farm_id, event.vat, event.kind, event.event_at);
    const pending = outcome.state === 'pending';
    await guarded(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: pending
            ? 'SET attempts = list_append(attempts, :a), #s = :s, next_at = :n, gsi1pk = :gp, gsi1sk = :gs'
            : 'SET attempts = list_append(attempts, :a), #s = :s REMOVE gsi1pk, gsi1sk',
          // Only while it is still pending: a concurrent run that already finished it wins.
          ConditionExpression: '#s = :pending',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: {
            ':a': [attempt],
            ':s': outcome.state,
            ':pending': 'pending',
            ...(pending ? { ':n': outcome.next_at, ':gp': k.dairyPendingIndex, ':gs': k.dairyPending(outcome.next_at, key.pk, key.sk).gsi1sk } : {}),
          },
        }),
      ),
    );
  },
  async listEvents(farmId) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': k.farm(farmId).pk, ':s': k.dairyEventPrefix },
    });
    return items.map(toEvent);
  },
  async putDocket(docket) {
    // Its vat and time make its key: one that has not passed the docket's checks is never written.
    docketSchema.parse(docket);
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.docket(docket.farm_id, docket.VatID, docket.PickupDateTime), kind_of: 'DOCKET', ...docket } }));
  },
  async listDockets(farmId, vat) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': k.farm(farmId).pk, ':s': k.docketPrefix(vat) },
    });
    return items.map(toDocket);
  },
});
