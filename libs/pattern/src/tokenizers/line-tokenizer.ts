/** A line cut into tokens, and what the tokenizer needs to put them back together. */
export interface Tokenized {
  readonly tokens: string[];
  /** Indexes of the tokens followed by a space (punctuation tokenizer); null otherwise. */
  readonly spacesAfter: number[] | null;
}

/** Loki's drain LineTokenizer: one per log format (punctuation, logfmt, JSON). */
export interface LineTokenizer {
  /**
   * The line's tokens; `line_too_long` for a line over the length limit (counted by Loki's
   * `patterns_dropped_total`), null for another line not used for patterns (malformed, no
   * message field).
   */
  tokenize(line: Buffer): Tokenized | typeof LINE_TOO_LONG | null;
  /** The pattern text of a cluster's tokens (with `<_>` for the parts that vary). */
  join(tokens: readonly string[], spacesAfter: readonly number[] | null): string;
}

/** What a tokenizer answers for a line longer than `max_allowed_line_length`. */
export const LINE_TOO_LONG = 'line_too_long';

/** Loki's placeholder for a variable part of a pattern. */
export const PARAM = '<_>';
