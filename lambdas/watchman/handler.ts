import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoDairyRepository } from '../adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { dynamoWatchmanDigestRepository } from '../adapters/dynamodb/watchman-digest-repository';
import { dynamoWatchmanRepository } from '../adapters/dynamodb/watchman-repository';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { makeWatchman } from './job';
import { cachedVatWindow } from './vat-window';

const log = createLogger({ function: 'watchman' });
const doc = createDocumentClient();
const FARMS_TABLE = requireEnv('FARMS_TABLE');
const READINGS_TABLE = requireEnv('READINGS_TABLE');
const readings = dynamoReadingsRepository(doc, READINGS_TABLE);
const watchman = makeWatchman({
  farms: dynamoFarmRepository(doc, FARMS_TABLE),
  readings,
  vatWindow: cachedVatWindow(readings, dynamoWatchmanDigestRepository(doc, READINGS_TABLE)),
  dairy: dynamoDairyRepository(doc, FARMS_TABLE),
  watchman: dynamoWatchmanRepository(doc, FARMS_TABLE),
  now: () => new Date(),
  log,
});

/**
 * Watchman (issue 22), hourly (EventBridge in AWS, the scheduler stand-in locally, `npm run
 * watchman` once). A second invocation while one runs finds the lease taken and returns at once.
 */
export const handler = async () => {
  const outcome = await watchman.run();
  if (outcome.ran) {
    const { _id, started_at, finished_at, outcome: end, ...counts } = outcome.run;
    log.info('watchman run', { run: _id, started_at, finished_at, outcome: end, ...counts });
  } else log.info('watchman did not run', { reason: outcome.reason });
  return outcome.ran ? outcome.run : outcome;
};
