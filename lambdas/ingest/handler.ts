import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { alertProcessorFromEnv } from '../alerts/deps';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { makeIngest, type IngestDeps } from './ingest';
import { makeStreamHandler } from './stream-handler';

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
  };
};

export const handler = makeStreamHandler(makeIngest(defaultIngestDeps()), createLogger({ function: 'ingest' }));
