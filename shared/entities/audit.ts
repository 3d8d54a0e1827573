import * as z from 'zod';

/**
 * One administrative change (issue 18): who made it, when, to what, and the value before and
 * after, as the page shows them. Roles, herd flags, farm flags and milking-window imports are
 * recorded; nothing in an entry is a secret (no token ids, no passwords).
 */
export const auditEntrySchema = z.object({
  at: z.string(),
  /** The Admin who made the change (token sub) and their email as it was then. */
  by: z.object({ _id: z.string(), email: z.string() }),
  /** The action's type (USER_ROLE_EDIT, FARM_AUTO_CHECK_STATUS, …). */
  action: z.string(),
  /** What changed: a user's email, a farm's supply number, or the import's file name. */
  target: z.string(),
  before: z.string(),
  after: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Where an entry is listed: the Users page's changes or the Farms page's. */
export type AuditArea = 'user' | 'farm';

/** The newest entries each page shows at its bottom. */
export const AUDIT_PAGE = 50;
