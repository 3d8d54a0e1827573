import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  ListTablesCommand,
  ScanCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { TABLES, type TableDefinition } from '../../shared/data/tables';

export interface DynamoStandIn {
  readonly endpoint: string;
  readonly stop: () => Promise<void>;
}

/**
 * DynamoDB stand-in: dynalite (the DynamoDB API on LevelDB) in a child process, kept on disk so
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
            Projection: { ProjectionType: 'ALL' as const },
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
  }
  return names;
};

/**
 * dynalite has no TTL: AWS deletes items whose TTL attribute has passed, so the local stack
 * sweeps them itself. Returns how many it deleted.
 */
export const sweepExpired = async (client: DynamoDBClient, prefix: string, nowSeconds: number): Promise<number> => {
  let deleted = 0;
  for (const def of TABLES) {
    if (!def.ttlAttribute) continue;
    const TableName = localTableName(def, prefix);
    let ExclusiveStartKey: Record<string, import('@aws-sdk/client-dynamodb').AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName,
          ExclusiveStartKey,
          FilterExpression: '#ttl < :now',
          ExpressionAttributeNames: { '#ttl': def.ttlAttribute, '#pk': def.partitionKey.name, '#sk': def.sortKey.name },
          ExpressionAttributeValues: { ':now': { N: String(nowSeconds) } },
          ProjectionExpression: '#pk, #sk',
        }),
      );
      for (const Key of page.Items ?? []) {
        await client.send(new DeleteItemCommand({ TableName, Key }));
        deleted += 1;
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
  return deleted;
};
