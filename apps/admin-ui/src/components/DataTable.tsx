import type { ReactNode } from 'react';

export interface DataTableProps {
  /** The column headings, in order. */
  readonly columns: readonly string[];
  /** A last column of row actions, its heading (this name) for screen readers only. */
  readonly action?: string;
  readonly caption?: ReactNode;
  /** In a `table-wrap` box that scrolls sideways on a narrow screen (the default). */
  readonly wrap?: boolean;
  /** The rows. */
  readonly children: ReactNode;
}

/** A table of rows under one row of column headings. */
export function DataTable({ columns, action, caption, wrap = true, children }: DataTableProps) {
  const table = (
    <table>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col">
              {c}
            </th>
          ))}
          {action !== undefined && (
            <th scope="col">
              <span className="sr-only">{action}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return wrap ? <div className="table-wrap">{table}</div> : table;
}
