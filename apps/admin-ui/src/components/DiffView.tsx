import { useMemo } from 'react';
import { type DiffRow, countChanges, diffLines } from '../lib/diff';

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

/** Two texts side by side, differing lines highlighted; only changes with `onlyChanges`. */
export function DiffView(props: {
  left: string;
  right: string;
  leftTitle: string;
  rightTitle: string;
  onlyChanges?: boolean;
}) {
  const rows = useMemo(() => diffLines(props.left, props.right), [props.left, props.right]);
  const changes = countChanges(rows);
  const shown = props.onlyChanges ? rows.filter((r) => r.kind !== 'same') : rows;
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
