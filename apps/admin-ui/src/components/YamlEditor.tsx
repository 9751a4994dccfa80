import { useRef } from 'react';
import type { LineProblem } from '../lib/rule-yaml';

/**
 * A plain textarea with a line-number gutter; lines with a problem are marked in the gutter
 * and listed under it (each with its line), so nothing depends on colour alone.
 */
export function YamlEditor(props: {
  value: string;
  onChange(value: string): void;
  problems: readonly LineProblem[];
  label: string;
}) {
  const gutter = useRef<HTMLDivElement>(null);
  const lines = props.value.split('\n').length;
  const bad = new Set(props.problems.map((p) => p.line));
  return (
    <div>
      <div className="editor">
        <div className="gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => (
            <div key={i} className={bad.has(i + 1) ? 'marked' : ''}>
              {bad.has(i + 1) ? '● ' : ''}
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          aria-label={props.label}
          aria-invalid={props.problems.length > 0}
          aria-describedby="editor-problems"
          spellCheck={false}
          value={props.value}
          rows={Math.max(12, lines + 1)}
          onChange={(e) => props.onChange(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      <ul id="editor-problems" className="problems" aria-live="polite">
        {props.problems.map((p, i) => (
          <li key={i} className="error">
            Line {p.line}: {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
