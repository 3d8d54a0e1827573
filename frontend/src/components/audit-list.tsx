import type { ReactNode } from 'react';
import type { AuditEntry } from '@shared/entities/audit';
import { formatWhen } from '../lib/time-format';
import './audit-list.css';

/**
 * The administrative changes at the bottom of an admin page (issue 18): newest first, who, when,
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
          <table className="audit__table" aria-labelledby="audit-title">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Change</th>
                <th scope="col">Of</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={`${e.at}${e.action}${e.target}`}>
                  <td>{formatWhen(e.at, undefined)}</td>
                  <td>{e.by.email}</td>
                  <td>{e.action}</td>
                  <td>{e.target}</td>
                  <td>{e.before}</td>
                  <td>{e.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {footer}
    </section>
  );
}
