import * as z from 'zod';
import { auditEntrySchema } from '../../entities/audit';
import { access, contract } from '../contract';
import { idField } from '../fields';

/*
 * /api/admin/user (operator spec §2 Admin users, §3 User (admin view), §5, §6, §7): Admin only.
 * The role is the user's Cognito group membership, the only thing that decides access
 * (shared/roles.ts); the role stored on the profile at sign-up is never read here.
 */

/** operator §8. */
export const MSG_OWN_ROLE = 'You can not change your own role!';
export const MSG_NO_SUCH_USER = 'No such user.';

/** operator §2 Admin users: the users table's second menu sets 'Herdsman' (is_herd_enabled 1) or 'None' (0). */
export const HERD_LABEL = 'Herdsman';
export const herdText = (flag: 0 | 1): string => (flag === 1 ? HERD_LABEL : 'None');

/** The role menu (operator §2): the three choices an Admin makes. */
export const ROLE_CHOICES = ['Admin', 'Installer', 'User'] as const;
export type RoleChoice = (typeof ROLE_CHOICES)[number];

/**
 * A user as the admin page sees it (operator §3 User (admin view)): an explicit list of fields, so
 * nothing else on the profile (the herd site's token_id, verification state) ever leaves the
 * server through this list.
 */
const adminUserSchema = z.strictObject({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  created_at: z.string(),
  /** From the Cognito groups: the strongest of Admin, Installer, Milk Quality, Westlands; none is User. */
  role: z.enum(['Admin', 'Installer', 'Milk Quality', 'Westlands', 'User']),
  /** The partner memberships (Milk Quality, Westlands) the role menu keeps as they are. */
  partner_roles: z.array(z.enum(['Milk Quality', 'Westlands'])),
  is_herd_enabled: z.union([z.literal(0), z.literal(1)]),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

const userIdField = idField('userid');

const adminUserInputs = {
  USER_LIST: z.object({ type: z.literal('USER_LIST') }),
  USER_ROLE_EDIT: z.object({
    type: z.literal('USER_ROLE_EDIT'),
    userid: userIdField,
    role: z.enum(ROLE_CHOICES, { error: 'role must be Admin, Installer or User' }),
  }),
  USER_HERD_EDIT: z.object({
    type: z.literal('USER_HERD_EDIT'),
    userid: userIdField,
    is_herd_enabled: z.coerce
      .number({ error: 'is_herd_enabled must be 0 or 1' })
      .pipe(z.union([z.literal(0), z.literal(1)], { error: 'is_herd_enabled must be 0 or 1' })),
  }),
  USER_AUDIT_LIST: z.object({ type: z.literal('USER_AUDIT_LIST') }),
} as const;

const PATH = '/api/admin/user';
const admin = access.admin();

export const adminUserContracts = {
  USER_LIST: contract({ path: PATH, type: 'USER_LIST', input: adminUserInputs.USER_LIST, answer: z.array(adminUserSchema), access: admin }),
  /** Answers the user as the list shows them after the change. */
  USER_ROLE_EDIT: contract({ path: PATH, type: 'USER_ROLE_EDIT', input: adminUserInputs.USER_ROLE_EDIT, answer: adminUserSchema, access: admin }),
  USER_HERD_EDIT: contract({ path: PATH, type: 'USER_HERD_EDIT', input: adminUserInputs.USER_HERD_EDIT, answer: adminUserSchema, access: admin }),
  /** Not in the spec: the newest role and herd changes, for the bottom of the page. */
  USER_AUDIT_LIST: contract({ path: PATH, type: 'USER_AUDIT_LIST', input: adminUserInputs.USER_AUDIT_LIST, answer: z.array(auditEntrySchema), access: admin }),
} as const;
