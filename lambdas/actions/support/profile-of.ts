import type { User } from '../../../shared/entities/user';
import type { Caller } from '../../lib/caller';
import { ForbiddenError } from '../../lib/errors';
import type { FarmReader } from '../../ports/action-ports';

/** The caller's profile; the role shown is the verified token's, never a stored copy. */
export const profileOf = async (farms: Pick<FarmReader, 'getUser'>, caller: Caller): Promise<User> => {
  const user = await farms.getUser(caller.userId);
  if (!user) throw new ForbiddenError('No user profile for this account');
  return { ...user, role: caller.role };
};
