import { DAIRY_SYNC_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'dairy-sync' });
const env = envAtImport();

/**
 * The dairy-company link, every minute (EventBridge in AWS, the scheduler stand-in
 * locally): queue new events, send what is due, fetch dockets. Overlapping runs are harmless:
 * events are queued by conditional put and sent with their idempotency key.
 */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { makeDairyExporter }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./exporter'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(DAIRY_SYNC_PORTS);
  const exporter = makeDairyExporter({
    farms: ports.farms,
    readings: ports.readingsHistory,
    alerts: ports.alertsWrite,
    dairy: ports.dairyWrite,
    watchman: ports.watchman,
    gateway: ports.dairyGateway,
    now: ports.now,
    log,
  });
  return observe(log, async () => {
    const result = await exporter.run();
    if (result.queued + result.sent + result.refused + result.retrying > 0) log.info('dairy sync', result);
    return result;
  });
});
