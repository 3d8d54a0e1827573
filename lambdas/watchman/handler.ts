import { createDocumentClient } from '../adapters/dynamodb/client';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { makeWatchman } from './job';
import { watchmanTables } from './tables';

const log = createLogger({ function: 'watchman' });
const watchman = makeWatchman({ ...watchmanTables(createDocumentClient(), requireEnv('FARMS_TABLE'), requireEnv('READINGS_TABLE'), requireEnv('ALERTS_TABLE')), now: () => new Date(), log });

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
