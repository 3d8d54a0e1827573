import * as z from 'zod';

/**
 * One administrative change: who made it, when, to what, and the value before and
 * after, as the page shows them. Roles, herd flags, farm flags, milking-window imports, packages,
 * low connectivity, device status and names, vat settings and Watchman's settings are recorded; nothing in an entry is a secret (no token ids, no passwords).
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

/** Where an entry is listed: the Users page's changes, the Farms page's, the device list's or Watchman's Activity. */
export type AuditArea = 'user' | 'farm' | 'device' | 'watchman';

/** A page of entries, newest first; `cursor` (absent on the last page) asks for the next, older one. */
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), cursor: z.string().optional() });
export type AuditPageAnswer = z.infer<typeof auditPageSchema>;

/** The newest entries each page shows at its bottom. */
export const AUDIT_PAGE = 50;
