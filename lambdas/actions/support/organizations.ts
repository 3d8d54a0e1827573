import { MAX_ORGANIZATION_DEPTH, type Organization } from '../../../shared/entities/organization';
import type { Ports } from '../../ports/action-ports';

/** Whether `org` sits under one of `ids` (walks up at most the tree's depth). */
const isUnderOneOf = async (orgs: Ports['organizations'], org: Organization, ids: ReadonlySet<string>): Promise<boolean> => {
  let parentId = org.parent_id;
  for (let depth = 0; parentId && depth < MAX_ORGANIZATION_DEPTH; depth += 1) {
    if (ids.has(parentId)) return true;
    parentId = (await orgs.getOrganization(parentId))?.parent_id ?? null;
  }
  return false;
};

/** The caller's organizations ("All Organization"): those they have a role in, less those under another of them. */
export const ownOrganizations = async (orgs: Ports['organizations'], userId: string): Promise<Organization[]> => {
  const ids = new Set(await orgs.listOrganizationIdsOfUser(userId));
  const found = (await Promise.all([...ids].map((id) => orgs.getOrganization(id)))).filter((o): o is Organization => o !== undefined);
  const under = await Promise.all(found.map((o) => isUnderOneOf(orgs, o, ids)));
  return found.filter((_, i) => !under[i]).sort((a, b) => a.name.localeCompare(b.name));
};

/** The top of the caller's first tree (USER_ONE_GET_BY_TOKEN's organization, which the group link opens), or null. */
export const organizationOfUser = async (orgs: Ports['organizations'], userId: string): Promise<{ _id: string; name: string; tag: Organization['tag'] } | null> => {
  const [first] = await ownOrganizations(orgs, userId);
  return first ? { _id: first._id, name: first.name, tag: first.tag } : null;
};
