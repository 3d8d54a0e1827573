import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv } from '../../lib/env';

/**
 * The document client every repository uses. DYNAMODB_ENDPOINT is set only where DynamoDB is
 * not at its AWS address (the local stack's dynalite); the calls are the same.
 */
export const createDocumentClient = (env: NodeJS.ProcessEnv = process.env): DynamoDBDocumentClient => {
  const endpoint = optionalEnv('DYNAMODB_ENDPOINT', env);
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    region: optionalEnv('AWS_REGION', env) ?? 'us-east-1',
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
};
