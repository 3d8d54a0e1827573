import { profileActions as schemas } from '../../shared/api/actions/profile';
import { ForbiddenError } from '../lib/errors';
import type { Actions } from '../lib/api-handler';
import type { Deps } from '../lib/deps';
import { action } from '../lib/dispatch';

const profileOf = action<typeof schemas.USER_PROFILE_DATAILS, Deps>(schemas.USER_PROFILE_DATAILS, async (_input, { caller, deps }) => {
  const user = await deps.farms.getUser(caller.userId);
  if (!user) throw new ForbiddenError('No user profile for this account');
  return { ...user, role: caller.role };
});

/** /api/setting/profile (farmer spec §7). */
export const settingProfileActions: Actions = {
  USER_PROFILE_DATAILS: profileOf,
};

/** /api/farmer/survey: the same type answers the user and their farms (farmer spec §2.16). */
export const farmerSurveyActions: Actions = {
  USER_PROFILE_DATAILS: action(schemas.USER_PROFILE_DATAILS, async (_input, { caller, deps }) => {
    const user = await deps.farms.getUser(caller.userId);
    if (!user) throw new ForbiddenError('No user profile for this account');
    const farms = await deps.farms.getFarms(await deps.farms.listFarmIdsOfUser(caller.userId));
    return { user: { ...user, role: caller.role }, farms };
  }),
};
