import { apiHandler } from '../lib/api-handler';

/**
 * /api/calibration (spec §7). Its types are built by their own issues (see docs/architecture.md,
 * "Endpoints and their types"); until one lands here, every type answers 422 'Unknown type'.
 */
export const handler = apiHandler('/api/calibration', []);
