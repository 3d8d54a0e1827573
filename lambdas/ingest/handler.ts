import { requireEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

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
  const ingest = makeIngest({
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    now: () => new Date(),
    log: createLogger({ function: 'ingest' }),
    // The alert engine (issue 6) steps with every in-order reading, as part of the device's
    // committed step: a failure fails the device's records, and their retry evaluates them.
    onReading: alertProcessorFromEnv(createLogger({ function: 'ingest', part: 'alerts' }), env).onReading,
  });
  return makeStreamHandler(ingest, createLogger({ function: 'ingest' }));
});
