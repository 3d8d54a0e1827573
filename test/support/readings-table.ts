import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { startDynaliteTables } from './dynalite';

/** dynalite alone (no local stack) with the tables created under `prefix`: the Readings table's name and a document client on it. */
export const startReadingsTable = async (prefix: string): Promise<{ dynamo: DynamoStandIn; doc: DynamoDBDocumentClient; table: string }> => {
  const { dynamo, tables, doc } = await startDynaliteTables(prefix);
  return { dynamo, doc: doc(), table: tables.READINGS_TABLE as string };
};
