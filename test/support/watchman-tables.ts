import type { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { dynamoWatchmanDigestRepository } from '../../lambdas/adapters/dynamodb/watchman-digest-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import type { WatchmanDeps } from '../../lambdas/watchman/job';
import { cachedVatWindow } from '../../lambdas/watchman/vat-window';

/** Watchman's stores on the Farms, Readings and Alerts tables: built from the table names, as the browser tests run Watchman. */
export const watchmanTables = (doc: ReturnType<typeof createDocumentClient>, farmsTable: string, readingsTable: string, alertsTable: string): Omit<WatchmanDeps, 'now' | 'log'> => {
  const readings = dynamoReadingsRepository(doc, readingsTable);
  return {
    farms: dynamoFarmRepository(doc, farmsTable),
    readings,
    vatWindow: cachedVatWindow(readings, dynamoWatchmanDigestRepository(doc, readingsTable)),
    dairy: dynamoDairyRepository(doc, farmsTable),
    alerts: dynamoAlertsRepository(doc, alertsTable),
    watchman: dynamoWatchmanRepository(doc, farmsTable),
  };
};
