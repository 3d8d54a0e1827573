import { farmerLogFonterraActions } from '../actions/dairy-company';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/log/fonterra (farmer §2.15, §7): the dairy-company reports per vat (FARMER_LOG_FONTERRA). */
export const handler = apiHandler('/api/farmer/log/fonterra', farmerLogFonterraActions);
