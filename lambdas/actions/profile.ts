import { farmerSurveyContracts, settingProfileContracts } from '../../shared/api/actions/profile';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError } from '../lib/errors';
import type { Caller } from '../lib/caller';
import type { Ports } from '../lib/ports';

/** The caller's profile; the role shown is the verified token's, never a stored copy. */
const profileOf = async (farms: Ports['farms'], caller: Caller) => {
  const user = await farms.getUser(caller.userId);
  if (!user) throw new ForbiddenError('No user profile for this account');
  return { ...user, role: caller.role };
};

/** /api/setting/profile (farmer spec §7). */
export const settingProfileActions: readonly ServedAction[] = [
  serve(settingProfileContracts.USER_PROFILE_DATAILS, ['farms'], async (_input, { caller, deps }) => profileOf(deps.farms, caller)),
];

/** /api/farmer/survey: the same type answers the user and their farms (farmer spec §2.16). */
export const farmerSurveyActions: readonly ServedAction[] = [
  serve(farmerSurveyContracts.USER_PROFILE_DATAILS, ['farms'], async (_input, { caller, deps }) => {
    const user = await profileOf(deps.farms, caller);
    const farms = await deps.farms.getFarms(await deps.farms.listFarmIdsOfUser(caller.userId));
    return { user, farms };
  }),
];
