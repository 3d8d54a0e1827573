import { endpointByPath } from '../../shared/api/endpoints';
import { farmerActivityActions, type ActivityDeps } from '../actions/farmer-activity';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { defaultDeps } from '../lib/deps';
import { dispatch } from '../lib/dispatch';
import { requireEnv } from '../lib/env';
import { http } from '../lib/http';
import { createLogger } from '../lib/logger';

const PATH = '/api/farmer/activity';
const endpoint = endpointByPath(PATH);
if (!endpoint) throw new Error(`No endpoint ${PATH} in shared/api/endpoints.ts`);
const log = createLogger({ endpoint: PATH });
// The shared ports plus the Alerts table's reads (FARMER_STORAGE_ONE's alert), built at cold start.
const deps: ActivityDeps = { ...defaultDeps(), alerts: dynamoAlertsRepository(createDocumentClient(), requireEnv('ALERTS_TABLE')) };

/** /api/farmer/activity (spec §7): milk dashboard ranges, milkings, storage, collections, agitator stops. */
export const handler = http(dispatch({ auth: endpoint.auth, actions: farmerActivityActions, deps, log }), log);
