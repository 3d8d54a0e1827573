import type { AuditArea, AuditEntry } from '../../shared/entities/audit';

/**
 * The administrative changes (issue 18), in the Farms table: one partition per page
 * (`AUDIT#user`, `AUDIT#farm`), sorted by time, so the newest are one Query. Entries are only
 * ever added.
 */
export interface AuditRepository {
  record(area: AuditArea, entry: AuditEntry): Promise<void>;
  /** The newest `limit` entries, newest first. */
  list(area: AuditArea, limit: number): Promise<AuditEntry[]>;
}
