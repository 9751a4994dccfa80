import { log } from '@logsvc/logql';
import { LINE_TOO_LONG, PARAM, type LineTokenizer, type Tokenized } from './line-tokenizer';
import { encodeLogfmt } from './logfmt-encode';

/** Keys whose values are always variable (timestamps, trace IDs): Loki's isVariableField. */
function isVariableKey(key: string): boolean {
  const lower = key.toLowerCase();
  return (
    key === 't' ||
    lower === 'ts' ||
    lower === 'traceid' ||
    lower === 'time' ||
    lower === 'timestamp'
  );
}

/**
 * Loki's logfmtTokenizer: each pair gives two tokens, key and value (decoded), so patterns
 * vary by value only; time and trace ID values are `<_>` from the start. A line that is not
 * valid logfmt is not used.
 */
export class LogfmtTokenizer implements LineTokenizer {
  private readonly decoder = new log.LogfmtDecoder();

  constructor(private readonly maxLineLength: number) {}

  tokenize(line: Buffer): Tokenized | typeof LINE_TOO_LONG | null {
    if (line.length > this.maxLineLength) return LINE_TOO_LONG;
    const dec = this.decoder;
    dec.reset(line);
    const tokens: string[] = [];
    while (!dec.eol() && dec.scanKeyval()) {
      const key = dec.key();
      tokens.push(key, isVariableKey(key) ? PARAM : dec.value());
    }
    if (dec.err !== null) return null;
    return { tokens, spacesAfter: null };
  }

  join(tokens: readonly string[]): string {
    return encodeLogfmt(tokens);
  }
}
