import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { docketSchema } from '../../../shared/dairy-company/payloads';
import { farmsKeys as k } from './keys';
import { conditional, guarded, queryAll, unlessConditionFails } from './query';
import { attemptCountOf, MAX_KEPT_ATTEMPTS, type DairyEvent, type StoredDocket, type DairyRepository } from '../../ports/dairy';

const EVENT_FIELDS = ['key', 'farm_id', 'supplier_id', 'vat', 'kind', 'event_at', 'payload', 'state', 'next_at', 'attempts', 'attempt_count'] as const;
const toEvent = (item: Record<string, unknown>): DairyEvent => Object.fromEntries(EVENT_FIELDS.flatMap((f) => (item[f] === undefined ? [] : [[f, item[f]]]))) as unknown as DairyEvent;
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
    const count = attemptCountOf(event);
    // The list is replaced, not appended to: DynamoDB cannot append and trim one list in one
    // update. The count read with it is the condition, so a try another run recorded meanwhile is
    // never overwritten (that run's record stands; this one is dropped, as a late duplicate).
    await guarded(() =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: pending
            ? 'SET attempts = :a, attempt_count = :n, #s = :s, next_at = :next, gsi1pk = :gp, gsi1sk = :gs'
            : 'SET attempts = :a, attempt_count = :n, #s = :s REMOVE gsi1pk, gsi1sk',
          // Only while it is still pending: a concurrent run that already finished it wins.
          ConditionExpression: '#s = :pending AND (attempt_count = :was OR (attribute_not_exists(attempt_count) AND size(attempts) = :was))',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: {
            ':a': [...event.attempts, attempt].slice(-MAX_KEPT_ATTEMPTS),
            ':n': count + 1,
            ':was': count,
            ':s': outcome.state,
            ':pending': 'pending',
            ...(pending ? { ':next': outcome.next_at, ':gp': k.dairyPendingIndex, ':gs': k.dairyPending(outcome.next_at, key.pk, key.sk).gsi1sk } : {}),
          },
        }),
      ),
    );
  },
  async requeueRefused(farmId, now, eventKey) {
    const items = await queryAll(doc, table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': k.farm(farmId).pk, ':s': k.dairyEventPrefix },
    });
    const requeued: string[] = [];
    for (const e of items.map(toEvent).filter((x) => x.state === 'refused' && (eventKey === undefined || x.key === eventKey))) {
      const key = k.dairyEvent(e.farm_id, e.vat, e.kind, e.event_at);
      const moved = await conditional(() =>
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: key,
            UpdateExpression: 'SET #s = :pending, next_at = :now, gsi1pk = :gp, gsi1sk = :gs',
            // Only a refused event: one a concurrent resend already queued (or the gateway took) stays as it is.
            ConditionExpression: '#s = :refused',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':pending': 'pending', ':refused': 'refused', ':now': now, ':gp': k.dairyPendingIndex, ':gs': k.dairyPending(now, key.pk, key.sk).gsi1sk },
          }),
        ),
      );
      if (moved) requeued.push(e.key);
    }
    return requeued;
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
