import { ALERT_SWEEP_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'alert-sweep' });
const env = envAtImport();

/**
 * The scheduled alert sweep (EventBridge every minute in AWS, the scheduler stand-in locally).
 * Deliveries first, from their own index, so they never wait behind the fleet; then the
 * time-based alert types for every device (OFFLINE, a power cut that fell silent, collection
 * overrunning, pick-up due), whose new alerts are delivered as they are raised. Runs never
 * overlap: reserved concurrency 1 in AWS, one timer that skips while a run goes locally; and
 * were they to, each delivery is claimed under a lease and every engine write is conditional.
 */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { alertNotifier, alertProcessor }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./deps'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(ALERT_SWEEP_PORTS);
  const notifier = alertNotifier(ports, log);
  const processor = alertProcessor(ports, log);
  return observe(log, async (): Promise<{ devices: number; failed: number; delivered: number }> => {
    const queued = await notifier.retryPending();
    const result = await processor.sweepAll();
    const out = { ...result, delivered: queued + result.delivered };
    if (result.failed > 0) log.warn('alert sweep finished with failures', out);
    return out;
  });
});
