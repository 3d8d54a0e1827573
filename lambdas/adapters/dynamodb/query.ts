import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  GetCommand,
  QueryCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';

/**
 * The DynamoDB helpers every store of the Farms, Readings and Alerts tables shares: paging
 * queries, batch reads and writes that ask again for what the store left unprocessed, and
 * conditional writes. One copy of each loop, so a fix to one (a retry limit, a backoff) reaches
 * every store.
 */

export type Item = Record<string, unknown>;
export type Key = Record<string, unknown>;
/** A projection (attributes to read) of a GetItem, Query or BatchGetItem. */
type Projection = { readonly ProjectionExpression: string; readonly ExpressionAttributeNames: Record<string, string> };

/** Every item a Query matches (or the first `max`), following LastEvaluatedKey page by page. */
export const queryAll = async (
  doc: DynamoDBDocumentClient,
  table: string,
  input: Omit<QueryCommandInput, 'TableName'>,
  max = Number.POSITIVE_INFINITY,
): Promise<Item[]> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await doc.send(new QueryCommand({ TableName: table, ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < max);
  return items.slice(0, max);
};

/** The first item of one Query page (with `Limit: 1` and a direction: the newest or oldest of a key range). */
export const queryFirst = async (doc: DynamoDBDocumentClient, table: string, input: Omit<QueryCommandInput, 'TableName' | 'Limit'>): Promise<Item | undefined> => {
  const page = await doc.send(new QueryCommand({ TableName: table, ...input, Limit: 1 }));
  return page.Items?.[0] as Item | undefined;
};

/** Every item of one gsi1 partition, or of the part of it whose gsi1sk starts with `prefix`. */
export const queryGsi1 = (doc: DynamoDBDocumentClient, table: string, gsi1pk: string, prefix?: string): Promise<Item[]> =>
  queryAll(doc, table, {
    IndexName: GSI1,
    KeyConditionExpression: prefix ? 'gsi1pk = :p AND begins_with(gsi1sk, :s)' : 'gsi1pk = :p',
    ExpressionAttributeValues: prefix ? { ':p': gsi1pk, ':s': prefix } : { ':p': gsi1pk },
  });

/** One item by key (GetItem), undefined when there is none. */
export const getItem = async (doc: DynamoDBDocumentClient, table: string, key: Key, projection?: Projection): Promise<Item | undefined> =>
  (await doc.send(new GetCommand({ TableName: table, Key: key, ...projection }))).Item as Item | undefined;

/** A conditional write that lost its condition (someone else's write is there). */
export const isConditionFailure = (err: unknown): boolean => (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/** `write`'s answer, or `lost`'s when its condition failed; any other error is thrown. */
export const unlessConditionFails = async <T>(write: () => Promise<T>, lost: () => T | Promise<T>): Promise<T> => {
  try {
    return await write();
  } catch (err) {
    if (isConditionFailure(err)) return lost();
    throw err;
  }
};

/** A conditional write: true when it landed, false when its condition failed. */
export const conditional = (write: () => Promise<unknown>): Promise<boolean> =>
  unlessConditionFails(
    async () => {
      await write();
      return true;
    },
    () => false,
  );

/** A write that must not land over a newer one: a failed condition means this one is stale, and is no error. */
export const guarded = async (write: () => Promise<unknown>): Promise<void> => {
  await conditional(write);
};

const chunked = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** DynamoDB may leave part of a batch unprocessed under load: that part is asked again with a short backoff. */
const UNPROCESSED_RETRIES = 10;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(500, 10 * 2 ** attempt) * (0.5 + Math.random())));

/**
 * Sends `pending` with `send` until nothing is left unprocessed: at once, then again after a
 * growing backoff, at most UNPROCESSED_RETRIES times more (then throws, naming `what`).
 */
const untilProcessed = async <T>(what: string, unit: 'keys' | 'items', first: T[], send: (pending: T[]) => Promise<T[]>): Promise<void> => {
  let pending = first;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > UNPROCESSED_RETRIES) throw new Error(`${what}: ${pending.length} ${unit} still unprocessed`);
    if (attempt > 0) await backoff(attempt);
    pending = await send(pending);
  }
};

/**
 * BatchGetItem of `keys`: 100 keys a request, the requests in parallel (a fleet of 2,000 devices
 * is 20 requests at once, not 2,000 GetItems), unprocessed keys asked again. Each item found is
 * handed to `found` (in no particular order); missing keys are left out.
 */
export const batchGet = async (
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Key[],
  found: (item: Item) => void,
  options: { readonly projection?: Projection; readonly what?: string } = {},
): Promise<void> => {
  await Promise.all(
    chunked(keys, 100).map((chunk) =>
      untilProcessed(options.what ?? 'batchGet', 'keys', chunk, async (pending) => {
        const res: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ...options.projection } } }));
        for (const item of res.Responses?.[table] ?? []) found(item);
        return (res.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
      }),
    ),
  );
};

/** The items of `keys` in the keys' order (BatchGetItem, as batchGet); missing keys are left out. */
export const batchGetInOrder = async (doc: DynamoDBDocumentClient, table: string, keys: readonly { pk: string; sk: string }[]): Promise<Item[]> => {
  const found = new Map<string, Item>();
  await batchGet(doc, table, keys, (item) => found.set(`${String(item.pk)}|${String(item.sk)}`, item));
  return keys.flatMap((key) => {
    const item = found.get(`${key.pk}|${key.sk}`);
    return item ? [item] : [];
  });
};

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWriteItem of `requests`: 25 a request, the requests in parallel, unprocessed items sent again. */
export const batchWrite = async (doc: DynamoDBDocumentClient, table: string, requests: readonly WriteRequest[], what = 'batchWrite'): Promise<void> => {
  await Promise.all(
    chunked(requests, 25).map((chunk) =>
      untilProcessed(what, 'items', chunk, async (pending) => {
        const res = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        return res.UnprocessedItems?.[table] ?? [];
      }),
    ),
  );
};
