import * as z from 'zod';
import { PACKAGES } from './farm';

/**
 * Organizations (farmer §2.12, §3 Organization, §6, §9): a farming group's tree. An organization
 * has sub-organizations and farms (the farms are the tree's leaves, tagged Farm); users have a role
 * in an organization, and a role reaches down the tree (an Admin of a group administers its
 * regions and branches). Design: docs/architecture.md, "Organizations".
 */

/** §9 tags; an organization stored without one reads as Farm (§3). */
export const ORGANIZATION_TAGS = ['Group', 'Regional', 'Branch', 'Farm'] as const;
export const organizationTagSchema = z.enum(ORGANIZATION_TAGS);
export type OrganizationTag = z.infer<typeof organizationTagSchema>;
/** §9: the tag choices on add exclude Farm (farms join the tree through the provider). */
export const ADDABLE_TAGS = ['Group', 'Regional', 'Branch'] as const satisfies readonly OrganizationTag[];

/**
 * §9 packages of an organization: how it is charged. 'Non-independent accounting' (the default
 * for a new organization) means it is accounted with the organization above it, so it has no
 * Summary of its own (§2.12). A farm's own package is one of the three Vat-Man packages (§1).
 */
export const NON_INDEPENDENT = 'Non-independent accounting';
export const ORGANIZATION_PACKAGES = [NON_INDEPENDENT, ...PACKAGES] as const;
export const organizationPackageSchema = z.enum(ORGANIZATION_PACKAGES);
export type OrganizationPackage = z.infer<typeof organizationPackageSchema>;

/** §6 organization roles: Admin edits; everyone else sees the lists only. */
const ORGANIZATION_ROLES = ['Admin', 'User'] as const;
export const organizationRoleSchema = z.enum(ORGANIZATION_ROLES);
export type OrganizationRole = z.infer<typeof organizationRoleSchema>;

export const organizationSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** The supply id (§3 fonterra_id); the breadcrumb falls back to it when there is no name. */
  fonterra_id: z.string().optional(),
  tag: organizationTagSchema.default('Farm'),
  contact: z.string().default(''),
  address: z.string().default(''),
  email: z.string().default(''),
  phone: z.string().default(''),
  package: organizationPackageSchema.default(NON_INDEPENDENT),
  /** The organization above it; null at the top of a tree. */
  parent_id: z.string().nullable().default(null),
});
export type Organization = z.infer<typeof organizationSchema>;

/** A row of §3 listRole. */
export const organizationRoleEntrySchema = z.object({ user_id: z.string(), role: organizationRoleSchema });
export type OrganizationRoleEntry = z.infer<typeof organizationRoleEntrySchema>;

/** The messages of the organization rules (the spec gives only the confirmation's words). */
export const ORGANIZATION_MESSAGES = {
  /** §2.12 add-user dialog: the user must first register in the system. */
  notRegistered: 'No user is registered with this email. The user must first register in the system.',
  /** Ours: an address whose owner has not followed its verification link may not be theirs. */
  notVerified: 'That person has not verified their email address yet.',
  notMember: 'This user is not in the organization.',
  lastAdmin: 'An organization needs at least one Admin: add another Admin before removing this one.',
  notEmpty: 'An organization with sub-organizations or farms cannot be deleted. Delete its sub-organizations first; the provider moves farms.',
  tagLocked: 'The tag of an organization cannot be changed.',
  packageByProvider: 'The package is set by the provider.',
  nameRequired: 'Please enter a name',
  tooDeep: 'A sub-organization cannot be added here.',
  /** §5: delete and unlink need this confirmation. */
  confirmDelete: 'Are you sure you want to delete it?',
} as const;

/** How far a tree may go (Group › Regional › Branch › Farm): bounds every walk up or down it. */
export const MAX_ORGANIZATION_DEPTH = 6;
