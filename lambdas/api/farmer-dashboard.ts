import { farmerDashboardActions } from '../actions/farmer-dashboard';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/dashboard (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/farmer/dashboard', farmerDashboardActions);
