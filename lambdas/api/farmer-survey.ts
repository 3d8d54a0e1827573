import { farmerSurveyActions } from '../actions/profile';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/survey (spec §7): dispatches on `type`. */
export const handler = apiHandler('/api/farmer/survey', farmerSurveyActions);
