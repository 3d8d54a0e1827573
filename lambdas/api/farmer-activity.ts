import { endpointByPath } from '../../shared/api/endpoints';
import { farmerActivityActions, type ActivityDeps } from '../actions/farmer-activity';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoPickupRepository } from '../adapters/dynamodb/pickups-repository';
import { pickupActions, type PickupDeps } from '../actions/farmer-pickup';
import { defaultDeps } from '../lib/deps';
import { dispatch, type ActionDef } from '../lib/dispatch';
import { requireEnv } from '../lib/env';
import { http } from '../lib/http';
import { createLogger } from '../lib/logger';

const PATH = '/api/farmer/activity';
const endpoint = endpointByPath(PATH);
if (!endpoint) throw new Error(`No endpoint ${PATH} in shared/api/endpoints.ts`);
const log = createLogger({ endpoint: PATH });
// The shared ports plus the Alerts table's reads (FARMER_STORAGE_ONE's alert) and the pickups (ADD_PICKUP), built at cold start.
const doc = createDocumentClient();
const deps: ActivityDeps & PickupDeps = {
  ...defaultDeps(),
  alerts: dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE')),
  pickups: dynamoPickupRepository(doc, requireEnv('FARMS_TABLE')),
};
const actions: Readonly<Record<string, ActionDef<ActivityDeps & PickupDeps>>> = { ...farmerActivityActions, ...pickupActions };

/** /api/farmer/activity (spec §7): milk dashboard ranges, milkings, storage, collections, agitator stops, pickups. */
export const handler = http(dispatch({ auth: endpoint.auth, actions, deps, log }), log);
