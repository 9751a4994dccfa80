/** A line cut into tokens, and what the tokenizer needs to put them back together. */
export interface Tokenized {
  readonly tokens: string[];
  /** Indexes of the tokens followed by a space (punctuation tokenizer); null otherwise. */
  readonly spacesAfter: number[] | null;
}

/** Loki's drain LineTokenizer: one per log format (punctuation, logfmt, JSON). */
export interface LineTokenizer {
  /** The line's tokens; null when the line is not used for patterns (too long, malformed). */
  tokenize(line: Buffer): Tokenized | null;
  /** The pattern text of a cluster's tokens (with `<_>` for the parts that vary). */
  join(tokens: readonly string[], spacesAfter: readonly number[] | null): string;
}

/** Loki's placeholder for a variable part of a pattern. */
export const PARAM = '<_>';
