import { useMemo } from 'react';
import { type DiffRow, countChanges, diffLines } from '../lib/diff';
import { linesWithParents } from '../lib/yaml-context';

/**
 * The rows "only differing lines" keeps: the changes, and on each side the lines of the keys
 * that enclose a change (its section path: `ingester:` / `lifecycler:` above `heartbeat_period`).
 */
export function rowsWithSections(rows: readonly DiffRow[], left: string, right: string): DiffRow[] {
  const changed = rows.filter((r) => r.kind !== 'same');
  const keepLeft = linesWithParents(
    left.split('\n'),
    changed.flatMap((r) => (r.left ? [r.left.number] : [])),
  );
  const keepRight = linesWithParents(
    right.split('\n'),
    changed.flatMap((r) => (r.right ? [r.right.number] : [])),
  );
  return rows.filter(
    (r) =>
      r.kind !== 'same' ||
      (r.left !== undefined && keepLeft.has(r.left.number)) ||
      (r.right !== undefined && keepRight.has(r.right.number)),
  );
}

function Cell({ side, row }: { side: 'left' | 'right'; row: DiffRow }) {
  const line = row[side];
  const mark =
    row.kind === 'same' ? '' : side === 'left' ? (line ? 'del' : 'empty') : line ? 'ins' : 'empty';
  return (
    <>
      <td className="ln">{line?.number ?? ''}</td>
      <td className={`code ${mark}`}>{line?.text ?? ''}</td>
    </>
  );
}

/**
 * Two texts side by side, differing lines highlighted; with `onlyChanges` only the changes and
 * the keys that enclose them.
 */
export function DiffView(props: {
  left: string;
  right: string;
  leftTitle: string;
  rightTitle: string;
  onlyChanges?: boolean;
}) {
  const rows = useMemo(() => diffLines(props.left, props.right), [props.left, props.right]);
  const changes = countChanges(rows);
  const shown = useMemo(
    () => (props.onlyChanges ? rowsWithSections(rows, props.left, props.right) : rows),
    [rows, props.onlyChanges, props.left, props.right],
  );
  return (
    <div>
      <p role="status">
        {changes === 0 ? 'No differences.' : `${changes} line${changes === 1 ? '' : 's'} differ.`}
      </p>
      <div className="diff-wrap">
        <table className="diff">
          <thead>
            <tr>
              <th colSpan={2}>{props.leftTitle}</th>
              <th colSpan={2}>{props.rightTitle}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i} className={row.kind}>
                <Cell side="left" row={row} />
                <Cell side="right" row={row} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
