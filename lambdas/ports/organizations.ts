import type { Organization, OrganizationRole, OrganizationRoleEntry } from '../../shared/entities/organization';

/**
 * Organizations in the Farms table (docs/architecture.md, "Organizations"): the node
 * (`ORG#<id>`/`ORG`), its farms (`ORG#<id>`/`FARM#<farm>`) and its users' roles
 * (`ORG#<id>`/`USER#<sub>`) in one partition; gsi1 lists sub-organizations by parent, a user's
 * organizations and a farm's.
 */
/** What a membership change came to: done, or why not ('gone': the organization was deleted meanwhile). */
export type MemberChange = 'done' | 'gone' | 'notMember' | 'lastAdmin';

/**
 * Each change that could leave something hanging is made of conditional single-item writes in an
 * order that never leaves an orphan or an organization without its Admin (decision 046):
 *  - the node (`ORG#<id>`/`ORG`) carries a `version` (every change to what hangs under it is a
 *    put conditional on the version read) and its Admins (`admins`, the count the last-Admin rule
 *    trusts); a deletion first marks the node `deleting` (from then on it is gone to every reader),
 *    then removes its roles, then the node;
 *  - an addition under a node (a role, a sub-organization, a farm link) is written first and the
 *    node's version bumped after, unless it is being deleted: then the addition is taken back. So
 *    either the deletion sees the addition (and refuses, or removes the role), or the addition sees
 *    the deletion;
 *  - an Admin is added to `admins` after their role is written and taken out before it is changed,
 *    so a crash between leaves the count low (the rule refuses more), never high.
 * One change per method, each the place where a write of the same change (an audit entry) joins it.
 */
export interface OrganizationRepository {
  /** The node; undefined when there is none or it is being deleted. */
  getOrganization(orgId: string): Promise<Organization | undefined>;
  /** What hangs under a node: its farms' ids and its users' roles (one Query). */
  getContent(orgId: string): Promise<{ farmIds: string[]; roles: OrganizationRoleEntry[] }>;
  /** The sub-organizations (those being deleted left out). */
  listSubOrganizations(parentId: string): Promise<Organization[]>;
  getRole(orgId: string, userId: string): Promise<OrganizationRole | undefined>;
  /** The organizations the user has a role in (not those they reach through one). */
  listOrganizationIdsOfUser(userId: string): Promise<string[]>;
  /** The organizations a farm is linked to (not those above them). */
  listOrganizationIdsOfFarm(farmId: string): Promise<string[]>;
  /** Creates a top-level node (the provider's; the seed); never overwrites an existing id: false then. */
  createOrganization(org: Organization): Promise<boolean>;
  /** Adds a sub-organization under its `parent_id`: false when the parent is gone (nothing is left behind). */
  addSubOrganization(org: Organization): Promise<boolean>;
  /** Replaces the node's own fields (name, contact …); false when it is gone (never brought back). */
  editOrganization(org: Organization): Promise<boolean>;
  /** Deletes an organization without sub-organizations or farms, its roles after it. */
  deleteOrganization(orgId: string): Promise<'done' | 'gone' | 'notEmpty'>;
  /** Adds the user with the role User, or answers the role they already have. */
  addMember(orgId: string, userId: string): Promise<{ role: OrganizationRole } | 'gone'>;
  /** Gives the user a role (the provider's; the seed). Making the last Admin a User is 'lastAdmin'. */
  setRole(orgId: string, userId: string, role: OrganizationRole): Promise<MemberChange>;
  /** Unlinks the user; the last Admin is never unlinked ('lastAdmin'). */
  removeMember(orgId: string, userId: string): Promise<MemberChange>;
  /** Puts a farm in an organization (the provider's link; the seed): false when it is gone. */
  linkFarm(orgId: string, farmId: string): Promise<boolean>;
}
