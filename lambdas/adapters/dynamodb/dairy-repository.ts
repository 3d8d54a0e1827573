import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { docketSchema, type DairyEventKind, type Docket } from '../../../shared/dairy-company/payloads';
import { farmsKeys as k } from './keys';
import { isConditionFailure, queryAll } from './query';

/** One try at sending an event, and what came back (status 0: no answer). */
export interface DairyAttempt {
  readonly at: string;
  readonly status: number;
  readonly message: string;
}

/**
 * An event for the dairy company, from its detection to its answer (Farms table, beside the farm).
 * `key` is its idempotency key: made once (a conditional put), so no event is queued twice, and
 * sent with every try, so a try whose answer was lost is not counted twice by the gateway.
 */
export interface DairyEvent {
  readonly key: string;
  readonly farm_id: string;
  readonly supplier_id: string;
  readonly vat: number;
  readonly kind: DairyEventKind;
  /** When it happened (the milking's or collection's start, the exception's time). */
  readonly event_at: string;
  /** The request body as sent (gatewayJson). */
  readonly payload: string;
  /** pending: still to be sent (next_at); sent: the gateway accepted it; refused: a 4xx answer, final. */
  readonly state: 'pending' | 'sent' | 'refused';
  readonly next_at: string;
  readonly attempts: readonly DairyAttempt[];
}

/** A docket as stored for a farm's vat (the company's pickup record). */
export interface StoredDocket extends Docket {
  readonly farm_id: string;
}

export interface DairyRepository {
  /** Queues the event unless its key is already queued: 'created' or 'exists'. */
  addEvent(event: DairyEvent): Promise<'created' | 'exists'>;
  /** Pending events due at `now`, oldest first (the pending index of every farm). */
  listDue(now: string): Promise<DairyEvent[]>;
  /** Records a try; `outcome` sets the state (pending with the next try's time, sent or refused). */
  recordAttempt(event: Pick<DairyEvent, 'farm_id' | 'vat' | 'kind' | 'event_at'>, attempt: DairyAttempt, outcome: { state: 'sent' | 'refused' } | { state: 'pending'; next_at: string }): Promise<void>;
  /** A farm's events, by vat, kind and time. */
  listEvents(farmId: string): Promise<DairyEvent[]>;
  putDocket(docket: StoredDocket): Promise<void>;
  /** A farm's dockets of one vat, oldest first. */
  listDockets(farmId: string, vat: number): Promise<StoredDocket[]>;
}

const EVENT_FIELDS = ['key', 'farm_id', 'supplier_id', 'vat', 'kind', 'event_at', 'payload', 'state', 'next_at', 'attempts'] as const;
const toEvent = (item: Record<string, unknown>): DairyEvent => Object.fromEntries(EVENT_FIELDS.map((f) => [f, item[f]])) as unknown as DairyEvent;
const DOCKET_FIELDS = ['farm_id', 'DocketID', 'VatID', 'PickupDateTime', 'Volume', 'Temperature'] as const;
const toDocket = (item: Record<string, unknown>): StoredDocket => Object.fromEntries(DOCKET_FIELDS.map((f) => [f, item[f]])) as unknown as StoredDocket;

export const dynamoDairyRepository = (doc: DynamoDBDocumentClient, table: string): DairyRepository => ({
  async addEvent(event) {
    const key = k.dairyEvent(event.farm_id, event.vat, event.kind, event.event_at);
    try {
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...key, ...k.dairyPending(event.next_at, key.pk, key.sk), kind_of: 'DAIRY_EVENT', ...event },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return 'created';
    } catch (err) {
      if (isConditionFailure(err)) return 'exists';
      throw err;
    }
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
    await doc.send(
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
    ).catch((err: unknown) => {
      if (!isConditionFailure(err)) throw err;
    });
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
