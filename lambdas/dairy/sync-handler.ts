import { requireEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'dairy-sync' });
const env = envAtImport();

/**
 * The dairy-company link (issue 21), every minute (EventBridge in AWS, the scheduler stand-in
 * locally): queue new events, send what is due, fetch dockets. Overlapping runs are harmless:
 * events are queued by conditional put and sent with their idempotency key.
 */
export const handler = lazyHandler(async () => {
  const [{ dairyGatewayFromEnv }, { createDocumentClient }, { dynamoAlertsRepository }, { dynamoDairyRepository }, { dynamoFarmRepository }, { dynamoReadingsRepository }, { dynamoWatchmanRepository }, { makeDairyExporter }] = await Promise.all([
    import('../adapters/dairy-company/gateway-client'),
    import('../adapters/dynamodb/client'),
    import('../adapters/dynamodb/alerts-repository'),
    import('../adapters/dynamodb/dairy-repository'),
    import('../adapters/dynamodb/farms-repository'),
    import('../adapters/dynamodb/readings-repository'),
    import('../adapters/dynamodb/watchman-repository'),
    import('./exporter'),
  ]);
  const doc = createDocumentClient(env);
  const farmsTable = requireEnv('FARMS_TABLE', env);
  const exporter = makeDairyExporter({
    farms: dynamoFarmRepository(doc, farmsTable),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    alerts: dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE', env)),
    dairy: dynamoDairyRepository(doc, farmsTable),
    watchman: dynamoWatchmanRepository(doc, farmsTable),
    gateway: dairyGatewayFromEnv(env),
    now: () => new Date(),
    log,
  });
  return async () => {
    const result = await exporter.run();
    if (result.queued + result.sent + result.refused + result.retrying > 0) log.info('dairy sync', result);
    return result;
  };
});
