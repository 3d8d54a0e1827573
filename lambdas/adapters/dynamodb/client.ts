import { Agent } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv } from '../../lib/env';
import { instrumented } from '../aws-client';

/** Sockets to the local DynamoDB stand-in per client. */
const LOCAL_MAX_SOCKETS = 256;

/**
 * The document client every repository uses. DYNAMODB_ENDPOINT is set only where DynamoDB is
 * not at its AWS address (the local stack's dynalite); the calls are the same.
 */
export const createDocumentClient = (env: NodeJS.ProcessEnv = process.env): DynamoDBDocumentClient => {
  const endpoint = optionalEnv('DYNAMODB_ENDPOINT', env);
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    // The local stack serves every API request of a load run in one process (in AWS a Lambda
    // instance serves one at a time, where the SDK's 50 sockets are plenty): at 200 requests a
    // second the calls queued behind 50 sockets ("socket usage at capacity=50 and … enqueued")
    // and waited there instead of at the store. Kept alive, as the SDK's own agent is.
    ...(endpoint?.startsWith('http:') ? { requestHandler: { httpAgent: new Agent({ keepAlive: true, maxSockets: LOCAL_MAX_SOCKETS }) } } : {}),
    region: optionalEnv('AWS_REGION', env) ?? 'us-east-1',
  });
  // The SDK's logger step copies every request's input and every answer's output through its
  // sensitive-data filter even when nothing logs (the default no-op logger): about 4 % of the
  // ingest's CPU in batches of readings. Nothing here gives the client a logger.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(instrumented(client), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
};
