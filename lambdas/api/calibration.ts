import { calibrationActions } from '../actions/dairy-company';
import { apiHandler } from '../lib/api-handler';

/** /api/calibration (operator §7): COLLECTIONS joined with the dairy company's dockets, and VAT_CONFIG. */
export const handler = apiHandler('/api/calibration', calibrationActions);
