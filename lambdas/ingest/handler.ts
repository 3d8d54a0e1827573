import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { alertProcessorFromEnv } from '../alerts/deps';
import { optionalEnv, requireEnv } from '../lib/env';
import { LIVE_ENDPOINT_ENV, liveSenderFromEnv } from '../adapters/apigateway/live-sender';
import { dynamoConnectionsRepository } from '../adapters/dynamodb/connections-repository';
import { makeLivePush } from '../live/live';
import { createLogger } from '../lib/logger';
import { makeIngest, type IngestDeps } from './ingest';
import { makeStreamHandler } from './stream-handler';
import type { Reading } from '../../shared/telemetry/reading';

/** The ingest's ports from the environment (the same variables in AWS and the local stack). */
export const defaultIngestDeps = (env: NodeJS.ProcessEnv = process.env): IngestDeps => {
  const doc = createDocumentClient(env);
  return {
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    now: () => new Date(),
    log: createLogger({ function: 'ingest' }),
    // The alert engine (issue 6) steps with every in-order reading, as part of the device's
    // committed step: a failure fails the device's records, and their retry evaluates them.
    onReading: alertProcessorFromEnv(createLogger({ function: 'ingest', part: 'alerts' }), env).onReading,
    // Live updates (issue 26): each device's new readings to the WebSocket connections watching
    // its farm (the connections and liveSender ports' grants, cdk/lib/constructs/live.ts).
    ...(optionalEnv(LIVE_ENDPOINT_ENV, env)
      ? {
          onStored: (() => {
            const push = makeLivePush({
              connections: dynamoConnectionsRepository(doc, requireEnv('CONNECTIONS_TABLE', env)),
              sender: liveSenderFromEnv(env),
              log: createLogger({ function: 'ingest', part: 'live' }),
            });
            return (farm: string, device: string, readings: readonly Reading[]) => push.readingsStored(farm, device, readings);
          })(),
        }
      : {}),
  };
};

export const handler = makeStreamHandler(makeIngest(defaultIngestDeps()), createLogger({ function: 'ingest' }));
