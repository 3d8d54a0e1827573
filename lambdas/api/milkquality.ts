import { milkQualityActions } from '../actions/milk-quality';
import { apiHandler } from '../lib/api-handler';

/** /api/milkquality (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/milkquality', milkQualityActions);
