/**
 * Loki's parser hints (`pkg/logql/log/parser_hints.go`): which labels a metric query can use, so
 * that parsers extract only those. Only sample extraction gets hints; log queries never do.
 *
 * - `required`: the labels to extract, or null to extract every label (no hints).
 * - `noLabels`: the query needs no label at all (`sum(count_over_time({…} | json [5m]))`):
 *   parsers other than `regexp` are skipped, so they set no error either (Loki's behaviour).
 * - `preserveError`: parser errors also set `__preserve_error__` (see `LabelsBuilder`).
 *
 * The per-entry state (which required labels are extracted already) lives in the
 * `LabelsBuilder`: once all of them are, later parsers are skipped as if `noLabels`, and the
 * json and logfmt parsers stop reading the line.
 */
import { DUPLICATE_SUFFIX } from './errors';

/** Bytes a label name keeps as they are when sanitized: `[a-zA-Z0-9_]`. */
const NAME_BYTE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  NAME_BYTE[c] = /[a-zA-Z0-9_]/.test(ch) ? 1 : 0;
}

export class ParserHints {
  /**
   * `lengths[n]` is 1 when a label a parser may store under a wanted name (before any
   * `_extracted`) has `n` characters: lets parsers skip most keys without making strings.
   */
  private readonly lengths: Uint8Array | null;
  /**
   * Those names by length, as bytes, when made of `[a-zA-Z0-9_]` only (no other name can be
   * a plain key sanitized): top-level keys are compared to them in place.
   */
  private readonly byLength: Uint8Array[][] = [];
  /** Those names (wanted labels, and their bases before `_extracted`), or null without hints. */
  private readonly names: readonly string[] | null = null;

  constructor(
    readonly required: ReadonlySet<string> | null,
    readonly noLabels: boolean,
    readonly preserveError: boolean,
  ) {
    if (required === null) {
      this.lengths = null;
      return;
    }
    const bases = [...required].map((n) =>
      n.endsWith(DUPLICATE_SUFFIX) ? n.slice(0, -DUPLICATE_SUFFIX.length) : n,
    );
    this.lengths = new Uint8Array(Math.max(0, ...[...required].map((n) => n.length)) + 2);
    this.names = [...new Set([...bases, ...required])];
    for (const n of this.names) {
      this.lengths[n.length] = 1;
      if (!/^[a-zA-Z0-9_]*$/.test(n)) continue;
      (this.byLength[n.length] ??= []).push(Buffer.from(n, 'latin1'));
    }
  }

  /**
   * Whether the key `b[start, end)`, nested under a flattened prefix of `prefixLength`
   * characters (0 at the top level), can give a wanted label. False only for plain keys
   * (printable ASCII, which sanitizing maps one character to one) that cannot: nested ones
   * of a length no wanted label has, top-level ones whose sanitized name is none of the
   * wanted names (nor their base before `_extracted`). A caller still checks `wants` on the
   * final name.
   */
  mayWantKey(b: Buffer, start: number, end: number, prefixLength: number): boolean {
    const lengths = this.lengths;
    if (lengths === null) return true;
    const n = end - start;
    if (prefixLength !== 0) {
      const length = prefixLength + 1 + n;
      if (length < lengths.length && lengths[length] === 1) return true;
      return !isPlain(b, start, end);
    }
    // A top-level key starting with a digit gets a leading `_`.
    const first = b[start];
    const digit = first >= 0x30 && first <= 0x39;
    const names = this.byLength[digit ? n + 1 : n];
    if (names !== undefined) {
      const offset = digit ? 1 : 0;
      for (let k = 0; k < names.length; k++) {
        const name = names[k];
        if (digit && name[0] !== 0x5f) continue;
        let i = 0;
        for (; i < n; i++) {
          const c = b[start + i];
          if (c <= 0x20 || c >= 0x7f) return true;
          if ((NAME_BYTE[c] === 1 ? c : 0x5f) !== name[offset + i]) break;
        }
        if (i === n) return true;
      }
    }
    return !isPlain(b, start, end);
  }

  /**
   * The names a parser's sanitized key must equal to give a wanted label: the wanted labels
   * and their bases before `_extracted`. Null without hints (every key may be wanted).
   */
  keyNames(): readonly string[] | null {
    return this.names;
  }

  /** Whether a label may be extracted (before the per-entry "already extracted" check). */
  wants(name: string): boolean {
    return this.required === null || this.required.has(name);
  }

  /** Whether a required label can start with `prefix` (json descends into objects by it). */
  wantsPrefix(prefix: string): boolean {
    if (this.required === null) return true;
    for (const name of this.required) if (name.startsWith(prefix)) return true;
    return false;
  }
}

/** Whether every byte of `b[start, end)` is printable ASCII (no space). */
function isPlain(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i] <= 0x20 || b[i] >= 0x7f) return false;
  return true;
}

/** No hints: every parser extracts every label. */
export const NO_PARSER_HINTS = new ParserHints(null, false, false);

export interface HintInputs {
  /** Labels read by the pipeline's stages (label filters, templates, renames). */
  readonly stageLabels: readonly string[];
  /** The extraction's grouping (its own `by`/`without`, or one pushed down by a `sum`). */
  readonly groups: readonly string[];
  readonly without: boolean;
  /** `by ()`, a bare enclosing `sum`, or `absent_over_time`: the samples carry no labels. */
  readonly noLabels: boolean;
  /** The `unwrap` label, when any. */
  readonly unwrapLabel?: string;
  /** Loki's `PreserveError` decision, computed by the caller. */
  readonly preserveError: boolean;
}

/** `NewParserHint`: hints from the labels a query reads and its grouping. */
export function newParserHints(inputs: HintInputs): ParserHints {
  const names = new Set<string>();
  const add = (name: string): void => {
    names.add(name);
    // Parsers test a name after adding `_extracted`, so a query naming `x_extracted` also
    // needs `x` (which a parser stores as `x_extracted` when a stream label holds `x`).
    if (name.endsWith(DUPLICATE_SUFFIX)) names.add(name.slice(0, -DUPLICATE_SUFFIX.length));
  };
  for (const n of inputs.stageLabels) add(n);
  for (const n of inputs.groups) add(n);
  if (inputs.unwrapLabel !== undefined && inputs.unwrapLabel !== '') add(inputs.unwrapLabel);
  if (inputs.noLabels) {
    return names.size > 0
      ? new ParserHints(names, false, inputs.preserveError)
      : new ParserHints(null, true, false);
  }
  // Without a `by` grouping nothing tells which labels matter.
  if (inputs.without || inputs.groups.length === 0) return NO_PARSER_HINTS;
  return new ParserHints(names, false, inputs.preserveError);
}
