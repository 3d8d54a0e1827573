import { z } from 'zod';
import { farmSchema } from '../../entities/farm';
import { userSchema } from '../../entities/user';
import { access, contract } from '../contract';

/** /api/setting/profile and /api/farmer/survey share USER_PROFILE_DATAILS (spelled so, spec §7). */
export const profileActions = {
  USER_PROFILE_DATAILS: z.object({ type: z.literal('USER_PROFILE_DATAILS') }),
} as const;

/** /api/setting/profile: the caller's own profile (farmer §2.10). */
export const settingProfileContracts = {
  USER_PROFILE_DATAILS: contract({ path: '/api/setting/profile', type: 'USER_PROFILE_DATAILS', input: profileActions.USER_PROFILE_DATAILS, answer: userSchema, access: access.self }),
} as const;

/** /api/farmer/survey: the same type answers the caller and their farms (farmer §2.16). */
export const farmerSurveyContracts = {
  USER_PROFILE_DATAILS: contract({
    path: '/api/farmer/survey',
    type: 'USER_PROFILE_DATAILS',
    input: profileActions.USER_PROFILE_DATAILS,
    answer: z.object({ user: userSchema, farms: z.array(farmSchema) }),
    access: access.self,
  }),
} as const;
