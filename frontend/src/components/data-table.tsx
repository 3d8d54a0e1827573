import type { ReactNode, TableHTMLAttributes } from 'react';

/** One column of a `DataTable`: its header text and what a row shows in its cell. */
export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => ReactNode;
}

/**
 * A plain table of rows: a header row of column headers (`scope="col"`) and a row of cells per
 * item, in the columns' order. The table's own attributes (class, label) pass through.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  ...table
}: {
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  readonly caption?: string;
} & TableHTMLAttributes<HTMLTableElement>) {
  return (
    <table {...table}>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.header}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.header}>{c.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
