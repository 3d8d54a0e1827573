import type { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { dynamoWatchmanDigestRepository } from '../adapters/dynamodb/watchman-digest-repository';
import { dynamoWatchmanRepository } from '../adapters/dynamodb/watchman-repository';
import type { WatchmanDeps } from './job';
import { cachedVatWindow } from './vat-window';

/** Watchman's stores on the Farms, Readings and Alerts tables: the handler's composition, and the tests'. */
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
