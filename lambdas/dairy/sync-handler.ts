import type { PortName } from '../ports/action-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'dairy-sync' });
const env = envAtImport();

/** What the dairy sync uses: loaded at its cold start, granted by the stack (cdk/lib/constructs/dairy-link.ts). */
export const DAIRY_SYNC_PORTS = ['farms', 'readingsHistory', 'alertsWrite', 'dairyWrite', 'watchman', 'dairyGateway', 'now'] as const satisfies readonly PortName[];

/**
 * The dairy-company link (issue 21), every minute (EventBridge in AWS, the scheduler stand-in
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
