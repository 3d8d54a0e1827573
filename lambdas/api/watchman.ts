import { watchmanActions } from '../actions/operator';
import { apiHandler } from '../lib/api-handler';

/** /api/watchman (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/watchman', watchmanActions);
