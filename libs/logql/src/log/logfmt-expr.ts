/**
 * The key of a `| logfmt a="key"` extraction, read as Loki's logfmt expression parser reads it
 * (`pkg/logql/log/logfmt`): a key `[A-Za-z_][A-Za-z0-9_]*` or a string `"..."` (running to the
 * next `"` or `]`, no escapes), then further strings. A character the scanner cannot read ends
 * the input with `unexpected char X`; a missing key is goyacc's syntax error. Loki looks the
 * values up by `fmt.Sprintf("%v", parts...)`, so parts after the first become Go's
 * `%!(EXTRA string=...)` text and match no key of a line.
 */

import { isIdentifier, isStartIdentifier } from './json-expr';

type Token = { kind: 'KEY' | 'STRING'; text: string } | { kind: '$end' };

class Scanner {
  private i = 0;
  /** The scanner's own error; a later syntax error replaces it, as in Loki. */
  error: string | undefined;

  constructor(private readonly text: string) {}

  next(): Token {
    const { text } = this;
    for (;;) {
      const c = String.fromCodePoint(text.codePointAt(this.i) ?? 0);
      if (this.i >= text.length || c === '\0') return { kind: '$end' };
      if (c === ' ' || c === '\t' || c === '\n') {
        this.i++;
        continue;
      }
      if (isStartIdentifier(c)) {
        const start = this.i;
        while (this.i < text.length && isIdentifier(text[this.i])) this.i++;
        return { kind: 'KEY', text: text.slice(start, this.i) };
      }
      if (c === '"') {
        const start = ++this.i;
        while (this.i < text.length && text[this.i] !== '"' && text[this.i] !== ']') this.i++;
        const value = text.slice(start, this.i);
        if (this.i < text.length) this.i++;
        return { kind: 'STRING', text: value };
      }
      this.error = `unexpected char ${c}`;
      return { kind: '$end' };
    }
  }
}

/** The lookup key of a logfmt extraction expression; throws Loki's message when it has none. */
export function logfmtExpressionKey(expression: string): string {
  const scanner = new Scanner(expression);
  const first = scanner.next();
  if (first.kind === '$end')
    throw new Error('syntax error: unexpected $end, expecting STRING or KEY');
  const parts = [first.text];
  for (let t = scanner.next(); t.kind !== '$end'; t = scanner.next()) {
    if (t.kind === 'KEY') throw new Error('syntax error: unexpected KEY');
    parts.push(t.text);
  }
  if (scanner.error !== undefined) throw new Error(scanner.error);
  return (
    parts[0] +
    parts
      .slice(1)
      .map((p) => `%!(EXTRA string=${p})`)
      .join('')
  );
}
