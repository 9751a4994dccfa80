// Context for a filtered YAML text: the keys that enclose the lines shown.

const indentOf = (line: string) => line.length - line.trimStart().length;
const isContent = (line: string) => line.trim() !== '' && !line.trimStart().startsWith('#');

/**
 * The 1-based lines to show when only `marked` lines are kept: those, plus every line that
 * encloses one of them by indentation (its parent keys), so that a nested setting keeps its
 * path. A list item's `- ` counts as indentation.
 */
export function linesWithParents(lines: readonly string[], marked: Iterable<number>): Set<number> {
  const shown = new Set<number>();
  for (const line of marked) {
    shown.add(line);
    let indent = indentOf(lines[line - 1] ?? '');
    for (let i = line - 1; i >= 1 && indent > 0; i--) {
      const text = lines[i - 1];
      if (!isContent(text) || indentOf(text) >= indent) continue;
      shown.add(i);
      indent = indentOf(text);
    }
  }
  return shown;
}
