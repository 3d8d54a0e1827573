import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/survey (spec §7): dispatches on `type`. */
export const handler = lazyApiHandler('/api/farmer/survey', async () => (await import('../actions/farmer-survey')).farmerSurveyHandlers);
