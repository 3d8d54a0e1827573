import { userActions } from '../actions/user';
import { apiHandler } from '../lib/api-handler';

/** /api/user (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/user', userActions);
