import { farmerActivityActions } from '../actions/farmer-activity';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/activity (spec §7): milk dashboard ranges, milkings, storage, collections, agitator stops, pickups. */
export const handler = apiHandler('/api/farmer/activity', farmerActivityActions);
