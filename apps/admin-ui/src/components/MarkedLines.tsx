/** A highlighted line and what its highlight means (also given as text, not by colour alone). */
export interface LineMark {
  label: string;
}

/**
 * A text with line numbers in the diff table's look, its marked lines highlighted. Lines in
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
  const lines = props.text.replace(/\n$/, '').split('\n');
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
            if (props.onlyMarked && !mark) return null;
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
