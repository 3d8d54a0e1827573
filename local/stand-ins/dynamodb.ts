import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ScanCommand,
  type AttributeValue,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { TABLES, type TableDefinition } from '../../shared/data/tables';

export interface DynamoStandIn {
  readonly endpoint: string;
  /**
   * Fault injection: refuses this share of writes (PutItem, UpdateItem, DeleteItem,
   * BatchWriteItem, TransactWriteItems) with ProvisionedThroughputExceededException, as DynamoDB
   * does when a table or partition is over its throughput; 0 turns it off. Resolves once applied.
   */
  readonly throttleWrites: (share: number) => Promise<void>;
  /**
   * Fault injection: refuses every write that touches an item whose partition key starts with one
   * of `prefixes` (a transaction naming one is cancelled whole, as DynamoDB cancels a transaction
   * when one of its items is throttled); `[]` turns it off. Resolves once applied.
   */
  readonly failWritesTo: (prefixes: readonly string[]) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/**
 * DynamoDB stand-in: dynalite (the DynamoDB API on LevelDB, with TransactWriteItems added by
 * ./dynalite-transactions.ts) in a child process, kept on disk so
 * data survives a restart (in memory without a path). Tables come from shared/data/tables.ts,
 * the same list CDK deploys.
 */
export const startDynamo = async (port: number, path?: string): Promise<DynamoStandIn> => {
  if (path) mkdirSync(path, { recursive: true });
  const entry = fileURLToPath(new URL('./dynalite-process.ts', import.meta.url));
  const child = fork(entry, [String(port), ...(path ? [path] : [])], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`dynalite: ${JSON.stringify(m)}`))));
    child.once('exit', (code) => reject(new Error(`dynalite exited with code ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    throttleWrites: (share) =>
      new Promise<void>((resolve) => {
        const ack = (m: unknown) => {
          if (typeof m !== 'object' || m === null || !('throttled' in m)) return;
          child.off('message', ack);
          resolve();
        };
        child.on('message', ack);
        child.send({ throttleWrites: share });
      }),
    failWritesTo: (prefixes) =>
      new Promise<void>((resolve) => {
        const ack = (m: unknown) => {
          if (typeof m !== 'object' || m === null || !('failing' in m)) return;
          child.off('message', ack);
          resolve();
        };
        child.on('message', ack);
        child.send({ failKeys: [...prefixes] });
      }),
    stop: async () => {
      if (child.exitCode === null) child.disconnect();
      await exited;
    },
  };
};

export const localTableName = (def: TableDefinition, prefix: string) => `${prefix}-${def.id}`;

export const createTableInput = (def: TableDefinition, name: string): CreateTableCommandInput => {
  const keyAttrs = [def.partitionKey, def.sortKey, ...def.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, ...(g.sortKey ? [g.sortKey] : [])])];
  const unique = [...new Map(keyAttrs.map((a) => [a.name, a])).values()];
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: unique.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
    ],
    ...(def.globalSecondaryIndexes.length
      ? {
          GlobalSecondaryIndexes: def.globalSecondaryIndexes.map((g) => ({
            IndexName: g.indexName,
            KeySchema: [
              { AttributeName: g.partitionKey.name, KeyType: 'HASH' as const },
              ...(g.sortKey ? [{ AttributeName: g.sortKey.name, KeyType: 'RANGE' as const }] : []),
            ],
            Projection: g.nonKeyAttributes ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...g.nonKeyAttributes] } : { ProjectionType: 'ALL' as const },
          })),
        }
      : {}),
  };
};

/** Creates the tables that are missing; safe to run on every start. Returns env var -> name. */
export const ensureTables = async (client: DynamoDBClient, prefix: string): Promise<Record<string, string>> => {
  const existing = new Set<string>();
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    for (const n of page.TableNames ?? []) existing.add(n);
    start = page.LastEvaluatedTableName;
  } while (start);
  const names: Record<string, string> = {};
  for (const def of TABLES) {
    const name = localTableName(def, prefix);
    names[def.envVar] = name;
    if (!existing.has(name)) await client.send(new CreateTableCommand(createTableInput(def, name)));
    else await addMissingIndexes(client, def, name);
  }
  return names;
};

/**
 * A data folder from an older build may lack an index added since (the Farms fleet index).
 * dynalite cannot add an index to a table (it ignores UpdateTable's Create), so the table is
 * rebuilt: its items are read, the table made again from TABLES, and the items written back,
 * device items with the fleet index's keys, as a deploy's one-off backfill would give them.
 */
/** The fleet index's keys of a device item, and the seen index's for an active one (as a deploy's backfill writes them). */
const indexKeysOfDevice = (i: Record<string, AttributeValue>): Record<string, AttributeValue> => ({
  gsi2pk: { S: 'ALL#DEVICE' },
  gsi2sk: { S: i.name?.S ?? '' },
  ...(i.status?.N === '1' ? { gsi3pk: { S: 'ACTIVE#DEVICE' }, gsi3sk: { S: i.seen_at?.S ?? '0000' } } : {}),
});

const addMissingIndexes = async (client: DynamoDBClient, def: TableDefinition, name: string): Promise<void> => {
  const described = await client.send(new DescribeTableCommand({ TableName: name }));
  const have = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
  if (def.globalSecondaryIndexes.every((g) => have.has(g.indexName))) return;
  const items: Record<string, AttributeValue>[] = [];
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: name, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  await client.send(new DeleteTableCommand({ TableName: name }));
  await waitFor(async () => !(await client.send(new ListTablesCommand({}))).TableNames?.includes(name));
  await client.send(new CreateTableCommand(createTableInput(def, name)));
  await waitFor(async () => (await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus === 'ACTIVE');
  const withKeys = items.map((i) => (def.id === 'Farms' && i.sk?.S === 'DEVICE' && i.name?.S ? { ...i, ...indexKeysOfDevice(i) } : i));
  for (let n = 0; n < withKeys.length; n += 25) {
    let pending = withKeys.slice(n, n + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const res = await client.send(new BatchWriteItemCommand({ RequestItems: { [name]: pending } }));
      pending = (res.UnprocessedItems?.[name] ?? []) as typeof pending;
    }
  }
};

/** Polls (at most 30 s) until `done`: dynalite makes and drops tables in the background, as AWS does. */
const waitFor = async (done: () => Promise<boolean>): Promise<void> => {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('a table change did not finish in 30 s');
};

/**
 * dynalite has no TTL: AWS deletes items whose TTL attribute has passed in the background, within
 * days, never all at once; the local stack does the same. Each call of the sweeper reads at most
 * `pageItems` items of each table with a TTL attribute, continuing where the last call stopped
 * (and starting over after the end), and deletes the expired ones 25 at a time. The work of one
 * tick is bounded however large the tables grow. Returns how many it deleted.
 */
export const expirySweeper = (client: DynamoDBClient, prefix: string, pageItems = 1000) => {
  const cursors = new Map<string, Record<string, AttributeValue>>();
  const sweep = async (nowSeconds: number): Promise<{ deleted: number; wrapped: boolean }> => {
    let deleted = 0;
    let wrapped = true;
    for (const def of TABLES) {
      if (!def.ttlAttribute) continue;
      const TableName = localTableName(def, prefix);
      const page = await client.send(
        new ScanCommand({
          TableName,
          Limit: pageItems,
          ExclusiveStartKey: cursors.get(TableName),
          FilterExpression: '#ttl < :now',
          ExpressionAttributeNames: { '#ttl': def.ttlAttribute, '#pk': def.partitionKey.name, '#sk': def.sortKey.name },
          ExpressionAttributeValues: { ':now': { N: String(nowSeconds) } },
          ProjectionExpression: '#pk, #sk',
        }),
      );
      if (page.LastEvaluatedKey) {
        cursors.set(TableName, page.LastEvaluatedKey);
        wrapped = false;
      } else cursors.delete(TableName);
      const keys = page.Items ?? [];
      for (let n = 0; n < keys.length; n += 25) {
        let pending = keys.slice(n, n + 25).map((Key) => ({ DeleteRequest: { Key } }));
        while (pending.length) {
          const res = await client.send(new BatchWriteItemCommand({ RequestItems: { [TableName]: pending } }));
          pending = (res.UnprocessedItems?.[TableName] ?? []) as typeof pending;
        }
      }
      deleted += keys.length;
    }
    return { deleted, wrapped };
  };
  return sweep;
};

/** One whole pass of the expiry sweep over every table (tests; the local stack sweeps a page a minute). */
export const sweepExpired = async (client: DynamoDBClient, prefix: string, nowSeconds: number): Promise<number> => {
  const sweep = expirySweeper(client, prefix);
  let deleted = 0;
  for (;;) {
    const pass = await sweep(nowSeconds);
    deleted += pass.deleted;
    if (pass.wrapped) return deleted;
  }
};
