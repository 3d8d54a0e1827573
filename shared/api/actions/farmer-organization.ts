import * as z from 'zod';
import {
  ADDABLE_TAGS,
  ORGANIZATION_MESSAGES as MSG,
  organizationPackageSchema,
  organizationRoleEntrySchema,
  organizationRoleSchema,
  organizationSchema,
  organizationTagSchema,
} from '../../entities/organization';
import { farmSchema } from '../../entities/farm';
import { access, contract } from '../contract';
import { idField, ID_MAX } from '../fields';
import { MSG_EMAIL } from './user';

/*
 * /api/farmer/organization (farmer §2.12, §3 Organization, §5, §6, §7). Every rule is the
 * server's: dispatch resolves the organization and the caller's role in it before any action runs
 * (access.orgMember / access.orgAdmin, shared/api/contract.ts). Design: docs/architecture.md,
 * "Organizations".
 */

const PATH = '/api/farmer/organization';

const SHORT_TEXT = 200;
const text = (name: string) => z.string({ error: `${name} must be text` }).trim().max(SHORT_TEXT, `${name} may be at most ${SHORT_TEXT} characters`).optional().default('');
/** The drawer's email: empty, or an address (§5's words). */
const optionalEmail = z
  .string({ error: MSG_EMAIL })
  .trim()
  .max(254, MSG_EMAIL)
  .refine((v) => v === '' || z.email().safeParse(v).success, MSG_EMAIL)
  .optional()
  .default('');
const nameField = z.string({ error: MSG.nameRequired }).trim().min(1, MSG.nameRequired).max(SHORT_TEXT, `name may be at most ${SHORT_TEXT} characters`);

/** The drawer form's fields (§2.12: tag, name, contact, address, email, phone), and the package of §7's payload. */
const formFields = {
  name: nameField,
  contact: text('contact'),
  address: text('address'),
  email: optionalEmail,
  phone: text('phone'),
  /** Set by the provider: a new organization is 'Non-independent accounting', an edit keeps what is stored. */
  package: organizationPackageSchema.optional(),
};

/** A node of the tree as the lists show it: a sub-organization, or a farm (tag Farm). */
const organizationRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  fonterra_id: z.string().optional(),
  tag: organizationTagSchema,
  /** A farm of the organization (not an organization): no page of its own, never edited or deleted here. */
  is_farm: z.boolean(),
});
export type OrganizationRow = z.infer<typeof organizationRowSchema>;

const organizationUserSchema = z.object({ _id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() });
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

/** One farm of the Summary: its package's SMS allowance (§9) and the texts the notifier sent it this month (farm-local). */
const summaryFarmSchema = z.object({
  _id: z.string(),
  fonterra_id: z.string(),
  name: z.string().optional(),
  package: farmSchema.shape.package,
  vats: z.number().int(),
  sms_sent: z.number().int(),
  sms_total: z.number().int(),
  /** Ours (Web Push): critical alerts this month whose push was opened or acknowledged before their text was due, so no text went. */
  sms_saved: z.number().int().optional(),
});
export type SummaryFarm = z.infer<typeof summaryFarmSchema>;

/** §2.12 Summary card: the organization's package and total SMS count, with the farms under it. */
const organizationSummarySchema = z.object({
  package: organizationPackageSchema,
  total_sms: z.number().int(),
  /** Ours (Web Push): the farms' texts saved this month (sum of their `sms_saved`). */
  sms_saved: z.number().int().optional(),
  farms: z.array(summaryFarmSchema),
});

/**
 * ORGANIZATION_LIST's answer: §7's currentFarm, listSub, listRole, listUser, listParent, and (not
 * in the spec's table) the caller's own `role` (an Admin role reaches down the tree, so listRole
 * alone cannot tell) and the Summary (null for 'Non-independent accounting' and at the top level).
 */
const organizationListSchema = z.object({
  currentFarm: organizationSchema.nullable(),
  listSub: z.array(organizationRowSchema),
  listRole: z.array(organizationRoleEntrySchema),
  listUser: z.array(organizationUserSchema),
  listParent: z.array(z.object({ _id: z.string(), name: z.string(), fonterra_id: z.string().optional() })),
  role: organizationRoleSchema.nullable(),
  summary: organizationSummarySchema.nullable(),
});
export type OrganizationList = z.infer<typeof organizationListSchema>;

const optionalId = (name: string) => z.string({ error: `${name} is not valid` }).trim().max(ID_MAX, `${name} is not valid`).optional().default('');

export const farmerOrganizationContracts = {
  /**
   * One organization the caller belongs to (a role in it or above it), or with no id the caller's
   * organizations ("All Organization"). A parent_id that is not above the organization is a 403
   * like a foreign organization.
   */
  ORGANIZATION_LIST: contract({
    path: PATH,
    type: 'ORGANIZATION_LIST',
    input: z.object({ type: z.literal('ORGANIZATION_LIST'), organization_id: optionalId('organization_id'), parent_id: optionalId('parent_id') }),
    answer: organizationListSchema,
    access: access.orgMemberOrNone('organization_id'),
  }),
  /** A sub-organization of `organization_id` (§9: Group, Regional or Branch), 'Non-independent accounting'. Answers it. */
  ORGANIZATION_ADD: contract({
    path: PATH,
    type: 'ORGANIZATION_ADD',
    input: z.object({
      type: z.literal('ORGANIZATION_ADD'),
      organization_id: idField('organization_id'),
      tag: z.enum(ADDABLE_TAGS, { error: 'tag must be Group, Regional or Branch' }),
      ...formFields,
    }),
    answer: organizationSchema,
    access: access.orgAdmin('organization_id'),
  }),
  /** The organization `_id` (the current one or a sub-organization): name, contact, address, email, phone. The tag is locked (§4). */
  ORGANIZATION_EDIT: contract({
    path: PATH,
    type: 'ORGANIZATION_EDIT',
    input: z.object({ type: z.literal('ORGANIZATION_EDIT'), _id: idField('_id'), tag: organizationTagSchema.optional(), ...formFields }),
    answer: organizationSchema,
    access: access.orgAdmin('_id'),
  }),
  /** Deletes the organization `_id` when it has neither sub-organizations nor farms (docs/architecture.md). */
  ORGANIZATION_DELETE: contract({
    path: PATH,
    type: 'ORGANIZATION_DELETE',
    input: z.object({ type: z.literal('ORGANIZATION_DELETE'), _id: idField('_id') }),
    answer: z.literal('success'),
    access: access.orgAdmin('_id'),
  }),
  /**
   * Gives a registered user (by email) the role User in the organization; anyone else is refused and
   * nothing is stored (§5), and so is an address no profile has verified (MSG.notVerified).
   */
  ORGANIZATION_USER_ADD: contract({
    path: PATH,
    type: 'ORGANIZATION_USER_ADD',
    input: z.object({
      type: z.literal('ORGANIZATION_USER_ADD'),
      organization_id: idField('organization_id'),
      email: z.string({ error: MSG_EMAIL }).trim().max(254, MSG_EMAIL).pipe(z.email({ error: MSG_EMAIL })),
    }),
    answer: organizationRoleEntrySchema,
    access: access.orgAdmin('organization_id'),
  }),
  /** Removes a user's role in the organization (the last Admin stays). */
  ORGANIZATION_USER_UNLINK: contract({
    path: PATH,
    type: 'ORGANIZATION_USER_UNLINK',
    input: z.object({ type: z.literal('ORGANIZATION_USER_UNLINK'), organization_id: idField('organization_id'), user_id: idField('user_id') }),
    answer: z.literal('success'),
    access: access.orgAdmin('organization_id'),
  }),
} as const;
