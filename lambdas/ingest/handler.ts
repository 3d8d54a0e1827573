import { optionalEnv, requireEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';
import { LIVE_ENDPOINT_ENV } from '../../shared/live/endpoint-env';
import type { createDocumentClient as DocumentClient } from '../adapters/dynamodb/client';
import type { StoredReadings } from '../live/live';

const env = envAtImport();

/** The ingest stream's consumer with its ports from the environment (the same variables in AWS and the local stack), loaded on first use. */
export const handler = lazyHandler(async () => {
  const [{ createDocumentClient }, { dynamoFarmRepository }, { dynamoReadingsRepository }, { alertProcessorFromEnv }, { makeIngest }, { makeStreamHandler }] = await Promise.all([
    import('../adapters/dynamodb/client'),
    import('../adapters/dynamodb/farms-repository'),
    import('../adapters/dynamodb/readings-repository'),
    import('../alerts/deps'),
    import('./ingest'),
    import('./stream-handler'),
  ]);
  const doc = createDocumentClient(env);
  // Live updates (issue 26): each device's new readings to the WebSocket connections watching its
  // farm (the connections and liveSender ports' grants, cdk/lib/constructs/live.ts).
  const onStored = optionalEnv(LIVE_ENDPOINT_ENV, env) ? await livePush(doc) : undefined;
  const ingest = makeIngest({
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    now: () => new Date(),
    log: createLogger({ function: 'ingest' }),
    // The alert engine (issue 6) steps over each device's in-order readings of a batch, as part of
    // the device's committed step: a failure fails the device's records, and their retry evaluates them.
    onReadings: alertProcessorFromEnv(createLogger({ function: 'ingest', part: 'alerts' }), env).onReadings,
    ...(onStored ? { onStored } : {}),
  });
  return makeStreamHandler(ingest, createLogger({ function: 'ingest' }));
});

const livePush = async (doc: ReturnType<typeof DocumentClient>) => {
  const [{ liveSenderFromEnv }, { dynamoConnectionsRepository }, { makeLivePush }] = await Promise.all([
    import('../adapters/apigateway/live-sender'),
    import('../adapters/dynamodb/connections-repository'),
    import('../live/live'),
  ]);
  const push = makeLivePush({
    connections: dynamoConnectionsRepository(doc, requireEnv('CONNECTIONS_TABLE', env)),
    sender: liveSenderFromEnv(env),
    log: createLogger({ function: 'ingest', part: 'live' }),
  });
  return (farm: string, devices: readonly StoredReadings[]) => push.readingsStored(farm, devices);
};
