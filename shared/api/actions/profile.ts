import { z } from 'zod';

/** /api/setting/profile and /api/farmer/survey share USER_PROFILE_DATAILS (spelled so, spec §7). */
export const profileActions = {
  USER_PROFILE_DATAILS: z.object({ type: z.literal('USER_PROFILE_DATAILS') }),
} as const;
