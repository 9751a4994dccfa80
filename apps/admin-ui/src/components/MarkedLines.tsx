import { useMemo } from 'react';
import { linesWithParents } from '../lib/yaml-context';

/** A highlighted line and what its highlight means (also given as text, not by colour alone). */
export interface LineMark {
  label: string;
}

/**
 * A YAML text with line numbers in the diff table's look, its marked lines highlighted; with
 * `onlyMarked`, only those and their parent keys. Lines in
 * `linked` are outlined (the partners of the line under the pointer or focus); `onPoint` tells
 * which marked line that is (undefined when none).
 */
export function MarkedLines(props: {
  title: string;
  text: string;
  marks: ReadonlyMap<number, LineMark>;
  onlyMarked?: boolean;
  linked?: ReadonlySet<number>;
  onPoint?: (line: number | undefined) => void;
}) {
  const lines = useMemo(() => props.text.replace(/\n$/, '').split('\n'), [props.text]);
  // With onlyMarked, the keys that enclose a marked line stay as its context.
  const shown = useMemo(
    () => (props.onlyMarked ? linesWithParents(lines, props.marks.keys()) : undefined),
    [lines, props.marks, props.onlyMarked],
  );
  return (
    <div className="diff-wrap">
      <table className="diff marked-lines">
        <thead>
          <tr>
            <th colSpan={2}>{props.title}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((text, i) => {
            const line = i + 1;
            const mark = props.marks.get(line);
            if (shown && !shown.has(line)) return null;
            const point = mark ? () => props.onPoint?.(line) : undefined;
            const leave = mark ? () => props.onPoint?.(undefined) : undefined;
            return (
              <tr
                key={line}
                className={props.linked?.has(line) ? 'linked' : undefined}
                onMouseEnter={point}
                onMouseLeave={leave}
              >
                <td className="ln">{line}</td>
                <td
                  className={`code${mark ? ' ins' : ''}`}
                  title={mark?.label}
                  tabIndex={mark ? 0 : undefined}
                  onFocus={point}
                  onBlur={leave}
                >
                  {text}
                  {mark && <span className="sr-only"> ({mark.label})</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
