import type { ReactNode } from 'react';
import type { AuditEntry } from '@shared/entities/audit';
import { formatWhen } from '../lib/time-format';
import { DataTable, type Column } from './data-table';
import './audit-list.css';

const AUDIT_COLUMNS: readonly Column<AuditEntry>[] = [
  { header: 'When', cell: (e) => formatWhen(e.at, undefined) },
  { header: 'Who', cell: (e) => e.by.email },
  { header: 'Change', cell: (e) => e.action },
  { header: 'Of', cell: (e) => e.target },
  { header: 'Before', cell: (e) => e.before },
  { header: 'After', cell: (e) => e.after },
];

/**
 * The administrative changes at the bottom of an admin page: newest first, who, when,
 * what and the value before and after. Times are the browser's local time (operator §9).
 */
export function AuditList({
  entries,
  failed,
  footer,
  title = 'Changes',
}: {
  readonly entries: readonly AuditEntry[] | undefined;
  readonly failed: boolean;
  readonly footer?: ReactNode;
  readonly title?: string;
}) {
  return (
    <section className="audit" aria-labelledby="audit-title">
      <h2 id="audit-title" className="audit__title">
        {title}
      </h2>
      {!entries ? (
        <p className="page__note">{failed ? 'The changes could not be loaded.' : 'Loading…'}</p>
      ) : entries.length === 0 ? (
        <p className="page__note">No changes yet.</p>
      ) : (
        <div className="audit__scroll">
          <DataTable className="audit__table" aria-labelledby="audit-title" columns={AUDIT_COLUMNS} rows={entries} rowKey={(e) => `${e.at}${e.action}${e.target}`} />
        </div>
      )}
      {footer}
    </section>
  );
}
