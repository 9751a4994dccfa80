/**
 * LogQL queries, valid and invalid, written from Loki's documentation (log queries, metric
 * queries, template functions, parser and label filter pages) and from the facts in Loki's
 * `parser_test.go`. `error` is the expected message (exact `parse error ...` text), or `true`
 * when any parse error is right but the text is not pinned down.
 */
export interface CorpusEntry {
  readonly q: string;
  readonly error?: string | true;
}

export const ok = (q: string): CorpusEntry => ({ q });
export const bad = (q: string, error: string | true = true): CorpusEntry => ({ q, error });
export const semantic = (q: string, reason: string): CorpusEntry => ({
  q,
  error: `parse error : ${reason}`,
});
export const at = (q: string, col: number, reason: string): CorpusEntry => ({
  q,
  error: `parse error at line 1, col ${col}: ${reason}`,
});
/**
 * An error Loki reports at line 0: its lexer read the token in question (a range, a duration, a
 * byte size, a flag, a two-character operator) character by character, which clears the line.
 */
export const atLine0 = (q: string, col: number, reason: string): CorpusEntry => ({
  q,
  error: `parse error at line 0, col ${col}: ${reason}`,
});

export const EMPTY_COMPATIBLE =
  'queries require at least one regexp or equality matcher that does not have an empty-compatible value. For instance, app=~".*" does not meet this requirement, but app=~".+" will';
