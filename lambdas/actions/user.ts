import { userActions as schemas } from '../../shared/api/actions/user';
import { ForbiddenError } from '../lib/errors';
import type { Actions } from '../lib/api-handler';
import { action, publicAction } from '../lib/dispatch';

/** /api/user: the signed-in user's record, sign-in and login status (farmer spec §7). */
export const userActions: Actions = {
  USER_ONE_GET_BY_TOKEN: action(schemas.USER_ONE_GET_BY_TOKEN, async (_input, { caller, deps }) => {
    const user = await deps.farms.getUser(caller.userId);
    // A Cognito account without a profile is not a user of this product (yet): no permission.
    if (!user) throw new ForbiddenError('No user profile for this account');
    const listFarm = await deps.farms.getFarms(await deps.farms.listFarmIdsOfUser(caller.userId));
    // The role shown is the one the verified token carries, never a stored copy.
    return { user: { ...user, role: caller.role }, listFarm, organization: null };
  }),
  USER_CHECK_LOGIN_STATUS: publicAction(schemas.USER_CHECK_LOGIN_STATUS, async (_input, { caller }) =>
    caller ? 'logged_in' : 'logged_out',
  ),
  USER_SIGN_IN: publicAction(schemas.USER_SIGN_IN, async ({ user }, { deps }) => {
    const tokens = await deps.identity.signIn(user.email.toLowerCase(), user.password);
    return { token: tokens.accessToken, idToken: tokens.idToken, refreshToken: tokens.refreshToken };
  }),
};
