import { type ColumnarLayout, ColumnKind } from './columnar-block';
import type { CursorOptions, MetadataEquals } from './cursor';
import type { SymbolTable } from './symbols';

/**
 * Whether a block may hold an entry a cursor with `options` returns: false only when its
 * token filter rules out its line prefilter (every needle of `lineContains`/`lineContainsAny`),
 * or when it provably has no entry with one of `metadataEquals` (`blockMayHoldMetadata`).
 * Blocks without a filter (the row format, the head) may always, but for metadata values the
 * chunk's symbol table lacks.
 */
export function blockMayMatch(
  layout: ColumnarLayout | undefined,
  options: CursorOptions | undefined,
  symbols?: SymbolTable,
): boolean {
  if (options === undefined) return true;
  const wanted = options.metadataEquals;
  if (wanted !== undefined && symbols !== undefined) {
    for (const w of wanted) if (!blockMayHoldMetadata(layout, symbols, w)) return false;
  }
  const filter = layout?.filter;
  if (filter === null || filter === undefined) return true;
  const needle = options.lineContains;
  if (needle !== undefined && needle.length > 0) return filter.mayContain(needle);
  const any = options.lineContainsAny;
  if (any === undefined || any.length === 0) return true;
  return filter.mayContainAny(any);
}

/** A name LogQL offers structured metadata under unchanged (see `normalizeMetadataName`). */
const PLAIN_NAME = /^(?:[\p{L}_][\p{L}\p{Nd}_]*)?$/u;

function offeredAsItself(raw: string): boolean {
  return PLAIN_NAME.test(raw) && !(raw.startsWith('_') && !raw.startsWith('__'));
}

/**
 * False only when no entry of the block (of a chunk with `symbols`) has structured metadata
 * `want.name` equal to `want.value`: the value is not in the chunk, or no metadata column that
 * could be offered under that name (its raw name is the name, or one LogQL normalizes) lists
 * it or, listing no values, has it in the block's value filter.
 */
export function blockMayHoldMetadata(
  layout: ColumnarLayout | undefined,
  symbols: SymbolTable,
  want: MetadataEquals,
): boolean {
  const valueId = symbols.idOf(want.value);
  if (valueId === undefined) return false;
  if (layout === undefined) return true;
  for (const c of layout.columns) {
    if (c.kind === ColumnKind.MetadataPairs) return layout.values?.mayContain(valueId) ?? true;
    if (c.kind !== ColumnKind.Metadata) continue;
    const raw = symbols.strings[c.name];
    if (raw !== want.name && offeredAsItself(raw)) continue;
    if (c.values !== null) {
      if (c.values.includes(valueId)) return true;
    } else if (layout.values?.mayContain(valueId) ?? true) {
      return true;
    }
  }
  return false;
}
