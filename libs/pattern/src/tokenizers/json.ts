import { PARAM, type LINE_TOO_LONG, type LineTokenizer, type Tokenized } from './line-tokenizer';
import { topLevelString } from './json-field';
import { PunctuationTokenizer } from './punctuation';

/**
 * Loki's default `pattern_ingester_tokenizable_json_fields_default`: the first of these
 * top-level string fields of a JSON line is its message.
 */
export const TOKENIZABLE_JSON_FIELDS: readonly string[] = [
  'log',
  'message',
  'msg',
  'msg_',
  '_msg',
  'content',
];

/**
 * Loki's jsonTokenizer: tokenizes only the message field of a JSON line (raw, escapes kept)
 * with the punctuation tokenizer; the pattern is `<_>message<_>`. Lines without such a field
 * are not used.
 */
export class JsonTokenizer implements LineTokenizer {
  private readonly punctuation: PunctuationTokenizer;

  constructor(
    private readonly maxLineLength: number,
    private readonly fields: readonly string[] = TOKENIZABLE_JSON_FIELDS,
  ) {
    this.punctuation = new PunctuationTokenizer(maxLineLength);
  }

  tokenize(line: Buffer): Tokenized | typeof LINE_TOO_LONG | null {
    for (const field of this.fields) {
      const message = topLevelString(line, field);
      if (message === undefined) continue;
      // Loki drops a too long message without counting it.
      if (message.length > this.maxLineLength) return null;
      return this.punctuation.tokenize(message);
    }
    return null;
  }

  join(tokens: readonly string[], spacesAfter: readonly number[] | null): string {
    return PARAM + this.punctuation.join(tokens, spacesAfter) + PARAM;
  }
}
