import type { ColumnarLayout } from './columnar-block';
import type { CursorOptions } from './cursor';

/**
 * Whether a block may hold an entry a cursor with `options` returns: false only when its
 * token filter rules out its line prefilter (every needle of `lineContains`/`lineContainsAny`).
 * Blocks without a filter (the row format, the head) may always.
 */
export function blockMayMatch(
  layout: ColumnarLayout | undefined,
  options: CursorOptions | undefined,
): boolean {
  const filter = layout?.filter;
  if (filter === null || filter === undefined || options === undefined) return true;
  const needle = options.lineContains;
  if (needle !== undefined && needle.length > 0) return filter.mayContain(needle);
  const any = options.lineContainsAny;
  if (any === undefined || any.length === 0) return true;
  return filter.mayContainAny(any);
}
