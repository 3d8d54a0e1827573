import { requireEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'watchman' });
const env = envAtImport();

/**
 * Watchman (issue 22), hourly (EventBridge in AWS, the scheduler stand-in locally, `npm run
 * watchman` once). A second invocation while one runs finds the lease taken and returns at once.
 */
export const handler = lazyHandler(async () => {
  const [{ createDocumentClient }, { makeWatchman }, { watchmanTables }] = await Promise.all([import('../adapters/dynamodb/client'), import('./job'), import('./tables')]);
  const watchman = makeWatchman({
    ...watchmanTables(createDocumentClient(env), requireEnv('FARMS_TABLE', env), requireEnv('READINGS_TABLE', env), requireEnv('ALERTS_TABLE', env)),
    now: () => new Date(),
    log,
  });
  return async () => {
    const outcome = await watchman.run();
    if (outcome.ran) {
      const { _id, started_at, finished_at, outcome: end, ...counts } = outcome.run;
      log.info('watchman run', { run: _id, started_at, finished_at, outcome: end, ...counts });
    } else log.info('watchman did not run', { reason: outcome.reason });
    return outcome.ran ? outcome.run : outcome;
  };
});
