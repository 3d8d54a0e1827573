import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { ensureTables, startDynamo, type DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { freePort } from './free-port';

export interface DynaliteTables {
  readonly dynamo: DynamoStandIn;
  /** The table names by environment variable (FARMS_TABLE, READINGS_TABLE, …). */
  readonly tables: Record<string, string>;
  /** A new document client on the stand-in, as the adapters build one. */
  readonly doc: () => DynamoDBDocumentClient;
}

/**
 * dynalite alone (no local stack) with every table created under `prefix`: for the cases that
 * drive adapters directly and need neither Cognito nor the API, so they start in a second.
 */
export const startDynaliteTables = async (prefix: string): Promise<DynaliteTables> => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  const dynamo = await startDynamo(await freePort());
  const tables = await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), prefix);
  return { dynamo, tables, doc: () => createDocumentClient({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' }) };
};
