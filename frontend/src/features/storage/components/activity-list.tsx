import type { ReactNode } from 'react';

export interface ActivityRow {
  readonly key: string;
  /** Label and value pairs, shown as a small definition list. */
  readonly facts: readonly (readonly [string, string])[];
  /** An action at the end of the row (a link to the storage page, a Delete button). */
  readonly action?: ReactNode;
  /** When it happened (ISO), for merging rows of two lists newest first. */
  readonly at?: string;
}

/** Rows grouped by vat number, vats in order. */
export const byVat = <T,>(items: readonly T[], vatOf: (item: T) => number): [number, T[]][] => {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(vatOf(item), [...(groups.get(vatOf(item)) ?? []), item]);
  return [...groups.entries()].sort(([a], [b]) => a - b);
};

/** One card per vat listing its rows (storage data, collections, agitator stops); one column at 375 px. */
export function ActivityList({ vat, rows, empty }: { readonly vat: number; readonly rows: readonly ActivityRow[]; readonly empty: string }) {
  const id = `activity-list-vat-${vat}`;
  return (
    <section className="card activity-list" aria-labelledby={id}>
      <h2 className="card__title" id={id}>
        Vat {vat}
      </h2>
      {rows.length === 0 ? (
        <p className="page__note">{empty}</p>
      ) : (
        <ul className="card-list">
          {rows.map((row) => (
            <li key={row.key} className="card-list__item activity-list__item">
              <dl className="activity-list__facts">
                {row.facts.map(([label, value]) => (
                  <div key={label} className="activity-list__fact">
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
              {row.action && <div className="activity-list__link">{row.action}</div>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
