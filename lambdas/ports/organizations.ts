import type { Organization, OrganizationRole, OrganizationRoleEntry } from '../../shared/entities/organization';

/**
 * Organizations in the Farms table (docs/architecture.md, "Organizations"): the node
 * (`ORG#<id>`/`ORG`), its farms (`ORG#<id>`/`FARM#<farm>`) and its users' roles
 * (`ORG#<id>`/`USER#<sub>`) in one partition; gsi1 lists sub-organizations by parent, a user's
 * organizations and a farm's.
 */
export interface OrganizationRepository {
  getOrganization(orgId: string): Promise<Organization | undefined>;
  /** What hangs under a node: its farms' ids and its users' roles (one Query). */
  getContent(orgId: string): Promise<{ farmIds: string[]; roles: OrganizationRoleEntry[] }>;
  listSubOrganizations(parentId: string): Promise<Organization[]>;
  getRole(orgId: string, userId: string): Promise<OrganizationRole | undefined>;
  /** The organizations the user has a role in (not those they reach through one). */
  listOrganizationIdsOfUser(userId: string): Promise<string[]>;
  /** The organizations a farm is linked to (not those above them). */
  listOrganizationIdsOfFarm(farmId: string): Promise<string[]>;
  /**
   * Creates or replaces the node. `onlyIfNew`: never overwrites an existing id. `onlyIfExists`:
   * never brings back a node deleted meanwhile (answers false then).
   */
  putOrganization(org: Organization, options?: { onlyIfNew?: boolean; onlyIfExists?: boolean }): Promise<boolean>;
  /** Removes the node and its users' roles; the caller has checked it has no sub-organizations or farms. */
  deleteOrganization(orgId: string): Promise<void>;
  putRole(orgId: string, userId: string, role: OrganizationRole): Promise<void>;
  deleteRole(orgId: string, userId: string): Promise<void>;
  /** Puts a farm in an organization (the provider's link; the seed). */
  linkFarm(orgId: string, farmId: string): Promise<void>;
}
