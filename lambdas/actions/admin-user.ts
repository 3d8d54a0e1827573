import { randomUUID } from 'node:crypto';
import { adminUserContracts as contracts, herdText, MSG_NO_SUCH_USER, MSG_OWN_ROLE, type AdminUser, type RoleChoice } from '../../shared/api/actions/admin-user';
import { AUDIT_PAGE } from '../../shared/entities/audit';
import type { User } from '../../shared/entities/user';
import { roleFromGroups, type OperatorGroup } from '../../shared/roles';
import { serve, type ServedAction } from '../lib/dispatch';
import { ValidationError } from '../lib/errors';
import { commitChange, recordBeforeChange } from './support/audit';

/** The admin view (operator §3): named fields only, the role from the Cognito groups. */
const adminView = (u: User, groups: readonly OperatorGroup[]): AdminUser => ({
  _id: u._id,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  phone: u.phone,
  created_at: u.created_at,
  role: roleFromGroups(groups),
  partner_roles: [...(groups.includes('MilkQuality') ? ['Milk Quality' as const] : []), ...(groups.includes('Westlands') ? ['Westlands' as const] : [])],
  is_herd_enabled: u.is_herd_enabled,
});

/**
 * The groups a role choice leaves a user in. The menu's three choices (operator §2) speak for the
 * Admin and Installer groups only: Admin and Installer are exclusive, User is neither. The
 * partner groups (MilkQuality, Westlands) are kept as they are: they are given with the
 * partner's account, not from this menu, and a staff member of the dairy company made an
 * Installer keeps their data views.
 */
const groupsAfter = (before: readonly OperatorGroup[], choice: RoleChoice): OperatorGroup[] => {
  const partner = before.filter((g) => g === 'MilkQuality' || g === 'Westlands');
  const staff: OperatorGroup[] = choice === 'User' ? [] : [choice];
  return [...staff, ...partner];
};

const userOf = async (farms: { getUser(id: string): Promise<User | undefined> }, id: string): Promise<User> => {
  const user = await farms.getUser(id);
  if (!user) throw new ValidationError(MSG_NO_SUCH_USER);
  return user;
};

/** /api/admin/user (operator spec §7): Admin only (the contracts' rule). */
export const adminUserHandlers: readonly ServedAction[] = [
  serve(contracts.USER_LIST, ['farms', 'groups'], async (_input, { deps }) => {
    const [users, memberships] = await Promise.all([deps.farms.listUsers(), deps.groups.memberships()]);
    return users.map((u) => adminView(u, memberships.get(u._id) ?? []));
  }),

  serve(contracts.USER_ROLE_EDIT, ['farms', 'groups', 'auditWrite', 'now'], async ({ userid, role }, { deps, caller }) => {
    // operator §5, §8: the client bars it too, but only this refusal makes it true.
    if (userid === caller.userId) throw new ValidationError(MSG_OWN_ROLE);
    const user = await userOf(deps.farms, userid);
    const before = (await deps.groups.memberships()).get(userid) ?? [];
    const after = groupsAfter(before, role);
    const joins = after.filter((x) => !before.includes(x));
    const leaves = before.filter((x) => !after.includes(x));
    if (!joins.length && !leaves.length) return adminView(user, after);
    // The groups are Cognito's, out of reach of a table transaction: the entry goes first, so no
    // role changes unrecorded (decision 050).
    await recordBeforeChange(deps, caller, 'user', { action: 'USER_ROLE_EDIT', target: user.email, before: roleFromGroups(before), after: roleFromGroups(after) });
    // Joined before left: a promotion from Installer to Admin never leaves the user in no group.
    for (const g of joins) await deps.groups.add(userid, g);
    for (const g of leaves) await deps.groups.remove(userid, g);
    return adminView(user, after);
  }),

  serve(contracts.USER_HERD_EDIT, ['farms', 'groups', 'auditedChanges', 'now'], async ({ userid, is_herd_enabled }, { deps, caller }) => {
    const user = await userOf(deps.farms, userid);
    const groups = (await deps.groups.memberships()).get(userid) ?? [];
    if (user.is_herd_enabled === is_herd_enabled) return adminView(user, groups);
    // On gives a new link; off removes it, so an old link stops working.
    const herd = is_herd_enabled === 1 ? { enabled: true as const, tokenId: randomUUID() } : { enabled: false as const };
    await commitChange(deps, caller, 'user', { action: 'USER_HERD_EDIT', target: user.email, before: herdText(user.is_herd_enabled), after: herdText(is_herd_enabled) }, [
      { kind: 'herd', userId: userid, herd, before: user.is_herd_enabled },
    ]);
    const { token_id: _old, ...rest } = user;
    return adminView(herd.enabled ? { ...rest, is_herd_enabled: 1, token_id: herd.tokenId } : { ...rest, is_herd_enabled: 0 }, groups);
  }),

  serve(contracts.USER_AUDIT_LIST, ['audit'], async (_input, { deps }) => (await deps.audit.list('user', AUDIT_PAGE)).entries),
];
