import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createLogger } from '../../../lambdas/lib/logger';
import { expirySweeper } from '../../stand-ins/dynamodb';
import { startScheduler } from '../../stand-ins/scheduler';
import type { Closers } from '../closers';
import { importFunction, TABLE_PREFIX, type LocalConfig } from '../config';

const log = createLogger({ service: 'local-stack' });
const MINUTE = 60_000;

type Job = () => Promise<unknown>;

/** A scheduled function, like its EventBridge schedule in AWS. */
const every = (closers: Closers, name: string, everyMs: number, invoke: Job) => {
  const scheduler = startScheduler([{ name, everyMs, invoke }], (failed, err) => log.error('scheduled target failed', { name: failed, err }));
  closers.add(() => scheduler.stop());
};

const scheduledHandler = async (config: LocalConfig, path: string): Promise<Job> => (await importFunction<{ handler: Job }>(config, path)).handler;

/**
 * EventBridge's schedules: the TTL sweep (dynalite has no TTL), the alert sweep, the dairy-company
 * sync, the install reconciler and Watchman. Returns Watchman's handler when it is scheduled.
 */
export const startSchedules = async (config: LocalConfig, closers: Closers, ddb: DynamoDBClient): Promise<{ watchman?: Job }> => {
  // Expired items are swept like AWS would: a bounded page of each table a minute, not a scan of every table.
  const sweepExpiredPage = expirySweeper(ddb, TABLE_PREFIX);
  every(closers, 'ttl-sweep', MINUTE, () => sweepExpiredPage(Math.floor(Date.now() / 1000)));
  // The sweep for time-based alert types and pending deliveries.
  const alertSweep = await scheduledHandler(config, 'lambdas/alerts/sweep-handler.ts');
  every(closers, 'alert-sweep', MINUTE, () => alertSweep());
  // The dairy-company link: events out, dockets in.
  if (config.dairySync) {
    const dairySync = await scheduledHandler(config, 'lambdas/dairy/sync-handler.ts');
    every(closers, 'dairy-sync', MINUTE, () => dairySync());
  }
  // Stuck New Install and reissue runs finished or undone (every minute here, so a stuck run is seen to be repaired).
  const reconcileInstalls = await scheduledHandler(config, 'lambdas/installer/reconcile-handler.ts');
  every(closers, 'install-reconciler', MINUTE, () => reconcileInstalls());
  // Watchman: hourly like its schedule; `npm run watchman` runs it once.
  if (!config.watchman) return {};
  const watchman = await scheduledHandler(config, 'lambdas/watchman/handler.ts');
  every(closers, 'watchman', config.watchmanEveryMs, () => watchman());
  return { watchman };
};
