import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { optionalEnv, requireEnv } from '../../lib/env';
import { LIVE_ENDPOINT_ENV } from '../../../shared/live/endpoint-env';
import type { LiveSender } from '../../ports/live';
import { instrumented } from '../aws-client';

const apiGatewayLiveSender = (client: ApiGatewayManagementApiClient): LiveSender => ({
  async post(connectionId, message) {
    try {
      await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(JSON.stringify(message)) }));
      return true;
    } catch (err) {
      if (err instanceof GoneException || (err as { name?: string }).name === 'GoneException') return false;
      throw err;
    }
  },
});

export const liveSenderFromEnv = (env: NodeJS.ProcessEnv = process.env): LiveSender =>
  apiGatewayLiveSender(instrumented(new ApiGatewayManagementApiClient({ endpoint: requireEnv(LIVE_ENDPOINT_ENV, env), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' })));
