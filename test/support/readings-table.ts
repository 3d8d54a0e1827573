import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { ensureTables, startDynamo, type DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { freePort } from './free-port';

/** dynalite alone (no local stack) with the tables created under `prefix`: the Readings table's name and a document client on it. */
export const startReadingsTable = async (prefix: string): Promise<{ dynamo: DynamoStandIn; doc: DynamoDBDocumentClient; table: string }> => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  const dynamo = await startDynamo(await freePort());
  const table = (await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), prefix)).READINGS_TABLE as string;
  return { dynamo, doc: createDocumentClient({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' }), table };
};
