import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deviceStore, vatDevices } from './farms/devices';
import { farmStore } from './farms/farms';
import { ingestRecords } from './farms/ingest-records';
import { knodeAssets } from './farms/knode-assets';
import { farmLinks } from './farms/links';
import { thingOwners } from './farms/things';
import { userStore } from './farms/users';
import type { FarmRepository } from '../../ports/farms';

/**
 * The Farms table's users, farms, links, devices, knode assets, thing owners and ingest records in
 * one (the wide port the wiring hands out): one store per key family (lambdas/adapters/dynamodb/farms/).
 * Resolving a unit's vat reads the farm's vats through the device store's finder, passed in.
 */
export const dynamoFarmRepository = (doc: DynamoDBDocumentClient, table: string): FarmRepository => {
  const vats = vatDevices(doc, table);
  return {
    ...userStore(doc, table),
    ...farmLinks(doc, table),
    ...farmStore(doc, table),
    ...deviceStore(doc, table, vats),
    ...knodeAssets(doc, table),
    ...thingOwners(doc, table, { vats }),
    ...ingestRecords(doc, table),
  };
};
