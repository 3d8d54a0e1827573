import { WATCHMAN_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'watchman' });
const env = envAtImport();

/**
 * Watchman, hourly (EventBridge in AWS, the scheduler stand-in locally, `npm run
 * watchman` once). A second invocation while one runs finds the lease taken and returns at once.
 */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { makeWatchman }, { cachedVatWindow }, { observe }, { countMetric, METRIC }] = await Promise.all([
    import('../composition/ports-from-env'),
    import('./job'),
    import('./vat-window'),
    import('../lib/observe'),
    import('../lib/metrics'),
  ]);
  const ports = portsFromEnv(env);
  await ports.load(WATCHMAN_PORTS);
  const watchman = makeWatchman({
    // Its one write of the farms: the sync flag (farmFlags, an UpdateItem of the farm item).
    farms: { listFarms: () => ports.farms.listFarms(), listDevicesOfFarm: (farmId) => ports.farms.listDevicesOfFarm(farmId), setFarmFlag: (...args) => ports.farmFlags.setFarmFlag(...args) },
    readings: ports.readingsHistory,
    vatWindow: cachedVatWindow(ports.readingsHistory, ports.watchmanDigests),
    dairy: ports.dairy,
    alerts: ports.alertHistory,
    watchman: ports.watchmanRuns,
    now: ports.now,
    log,
  });
  return observe(log, async () => {
    const outcome = await watchman.run();
    if (outcome.ran) {
      const { _id, started_at, finished_at, outcome: end, ...counts } = outcome.run;
      log.info('watchman run', { run: _id, started_at, finished_at, outcome: end, ...counts });
      countMetric(METRIC.watchmanCasesOpened, outcome.cases.opened.length);
    } else log.info('watchman did not run', { reason: outcome.reason });
    return outcome.ran ? outcome.run : outcome;
  });
});
