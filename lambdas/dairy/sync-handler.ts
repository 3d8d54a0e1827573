import { dairyGatewayFromEnv } from '../adapters/dairy-company/gateway-client';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { makeDairyExporter } from './exporter';

const log = createLogger({ function: 'dairy-sync' });
const doc = createDocumentClient();
const FARMS_TABLE = requireEnv('FARMS_TABLE');
const exporter = makeDairyExporter({
  farms: dynamoFarmRepository(doc, FARMS_TABLE),
  readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE')),
  alerts: dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE')),
  dairy: dynamoDairyRepository(doc, FARMS_TABLE),
  gateway: dairyGatewayFromEnv(),
  now: () => new Date(),
  log,
});

/**
 * The dairy-company link (issue 21), every minute (EventBridge in AWS, the scheduler stand-in
 * locally): queue new events, send what is due, fetch dockets. Overlapping runs are harmless:
 * events are queued by conditional put and sent with their idempotency key.
 */
export const handler = async () => {
  const result = await exporter.run();
  if (result.queued + result.sent + result.refused + result.retrying > 0) log.info('dairy sync', result);
  return result;
};
