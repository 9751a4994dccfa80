/**
 * The LogQL lexer. Turns the whole query into tokens up front (queries are at most 128 KiB),
 * following `pkg/logql/syntax/lex.go`: case-insensitive keywords, function names that are
 * keywords only before `(`, numbers that may be durations or byte sizes, `[range]` tokens,
 * `--flags`, Go strings and `#` comments. A lexing error ends the list with an ERROR token that
 * throws when the parser reads it: Loki's parser pulls tokens one by one, so a syntax error
 * before the bad token is the one it reports.
 */
import { ParseError } from './errors';
import {
  FUNCTION_WORDS,
  ONE_CHAR_OPS,
  PARSER_FLAGS,
  RESERVED_WORDS,
  TWO_CHAR_OPS,
  type Token,
  type TokenType,
} from './tokens';
import { humanizeParseBytes, modelParseDuration, timeParseDuration } from '@logsvc/gocompat';
import { goNumberLiteralError } from './go-number';
import { parseLogqlDuration } from './units';

export function tokenize(input: string): Token[] {
  return new Lexer(input).run();
}

const DURATION_RUNES = new Set(['n', 'u', 'µ', 'm', 's', 'h', 'd', 'w', 'y']);
const BYTES_RUNES = new Set(['B', 'i', 'k', 'K', 'M', 'G', 'T', 'P']);

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly input: string) {}

  run(): Token[] {
    const { input } = this;
    for (;;) {
      this.skipSpaceAndComments();
      if (this.pos >= input.length) {
        this.push('EOF', '', 0, input.length, input.length);
        return this.tokens;
      }
      const start = this.pos;
      try {
        this.next();
      } catch (err) {
        this.tokens.push({
          type: 'ERROR',
          value: '',
          num: 0,
          start,
          end: start,
          error: err as Error,
        });
        return this.tokens;
      }
    }
  }

  private next(): void {
    const { input } = this;
    const start = this.pos;
    const ch = input[start];
    const code = input.charCodeAt(start);
    if (isDigit(code) || (ch === '.' && isDigit(input.charCodeAt(start + 1)))) {
      this.number();
    } else if (isIdentStart(String.fromCodePoint(input.codePointAt(start) ?? 0))) {
      this.word();
    } else if (ch === '"' || ch === '`') {
      this.string();
    } else if (ch === '[') {
      this.range();
    } else if (ch === '-' && this.dashToken()) {
      return;
    } else {
      const two = input.slice(start, start + 2);
      if (TWO_CHAR_OPS.has(two)) {
        this.pos += 2;
        this.push('OP', two, 0, start, this.pos);
      } else if (ONE_CHAR_OPS.has(ch)) {
        this.pos += 1;
        this.push('OP', ch, 0, start, this.pos);
      } else {
        // Loki's lexer hands any other character to its parser as an IDENTIFIER, so what users
        // see most (a PromQL `@` modifier after an expression) is `unexpected IDENTIFIER` there.
        // Where its grammar takes an identifier Loki goes on; logsvc's parser refuses it.
        const cp = String.fromCodePoint(input.codePointAt(start) ?? 0);
        this.pos += cp.length;
        this.push('OTHER', cp, 0, start, this.pos);
      }
    }
  }

  private skipSpaceAndComments(): void {
    const { input } = this;
    while (this.pos < input.length) {
      const c = input[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.pos++;
      } else if (c === '#') {
        const nl = input.indexOf('\n', this.pos);
        this.pos = nl < 0 ? input.length : nl;
      } else {
        return;
      }
    }
  }

  /** Number, then (as Loki tries) a duration such as `5m`/`1h30m`, then a size such as `20MB`. */
  private number(): void {
    const { input } = this;
    const start = this.pos;
    const literalError = goNumberLiteralError(input, start);
    if (literalError !== undefined) throw this.error(start, literalError);
    let i = start;
    while (isDigit(input.charCodeAt(i))) i++;
    if (input[i] === '.') {
      i++;
      while (isDigit(input.charCodeAt(i))) i++;
    }
    if (input[i] === 'e' || input[i] === 'E') {
      let j = i + 1;
      if (input[j] === '+' || input[j] === '-') j++;
      while (isDigit(input.charCodeAt(j))) j++;
      i = j;
    }
    const numberText = input.slice(start, i);
    if (this.tryUnitTail(numberText, start, i)) return;
    const value = Number(numberText);
    if (!Number.isFinite(value)) {
      throw ParseError.semantic(
        `unable to parse literal as a float: strconv.ParseFloat: parsing ${JSON.stringify(numberText)}: value out of range`,
      );
    }
    this.pos = i;
    this.push('NUMBER', numberText, value, start, i);
  }

  /** Tries `text` + following duration runes as a DURATION, then + size runes as BYTES. */
  private tryUnitTail(text: string, start: number, from: number): boolean {
    const durEnd = this.scanTail(from, DURATION_RUNES);
    if (durEnd > from) {
      const durText = text + this.input.slice(from, durEnd);
      const ns = tryParse(() => parseLogqlDuration(durText));
      if (ns !== undefined) {
        this.pos = durEnd;
        this.push('DURATION', durText, ns, start, durEnd);
        return true;
      }
    }
    if (text.startsWith('-')) return false;
    const bytesEnd = this.scanTail(from, BYTES_RUNES);
    if (bytesEnd > from) {
      const bytesText = text + this.input.slice(from, bytesEnd);
      const bytes = tryParse(() => humanizeParseBytes(bytesText));
      if (bytes !== undefined) {
        this.pos = bytesEnd;
        this.push('BYTES', bytesText, bytes, start, bytesEnd);
        return true;
      }
    }
    return false;
  }

  private scanTail(from: number, runes: ReadonlySet<string>): number {
    const { input } = this;
    let i = from;
    while (i < input.length) {
      const c = input[i];
      if (!(isDigit(input.charCodeAt(i)) || c === '.' || runes.has(c))) break;
      i++;
    }
    return i;
  }

  /** `--strict`/`--keep-empty` flags and negative durations (`-5m`); false: plain `-`. */
  private dashToken(): boolean {
    const { input } = this;
    const start = this.pos;
    if (input[start + 1] === '-') {
      let i = start + 2;
      while (i < input.length && /[\p{L}-]/u.test(input[i])) i++;
      const flag = input.slice(start, i);
      if (PARSER_FLAGS.has(flag)) {
        this.pos = i;
        this.push('FLAG', flag, 0, start, i);
        return true;
      }
      return false;
    }
    const end = this.scanTail(start + 1, DURATION_RUNES);
    if (end === start + 1) return false;
    const text = input.slice(start, end);
    const ns = tryParse(() => Number(timeParseDuration(text)));
    if (ns === undefined) return false;
    this.pos = end;
    this.push('DURATION', text, ns, start, end);
    return true;
  }

  private word(): void {
    const { input } = this;
    const start = this.pos;
    let i = start;
    while (i < input.length) {
      const cp = input.codePointAt(i) ?? 0;
      const c = String.fromCodePoint(cp);
      if (!isIdentPart(c)) break;
      i += c.length;
    }
    this.pos = i;
    const text = input.slice(start, i);
    const lower = text.toLowerCase();
    if (FUNCTION_WORDS.has(lower) && this.followedByCall(i)) {
      this.push('FUNC', lower, 0, start, i);
    } else if (RESERVED_WORDS.has(lower)) {
      this.push('KW', lower, 0, start, i);
    } else {
      this.push('IDENT', text, 0, start, i);
    }
  }

  /** Loki's `isFunction`: next is `(`, or `by`/`without` and then `(`. */
  private followedByCall(from: number): boolean {
    const { input } = this;
    let i = skipSpaces(input, from);
    if (input[i] === '(') return true;
    const lowerAhead = input.slice(i, i + 7).toLowerCase();
    if (lowerAhead.startsWith('by')) i += 2;
    else if (lowerAhead === 'without') i += 7;
    else return false;
    return input[skipSpaces(input, i)] === '(';
  }

  private string(): void {
    const { input } = this;
    const start = this.pos;
    if (input[start] === '`') {
      const close = input.indexOf('`', start + 1);
      if (close < 0) throw this.error(start, 'literal not terminated');
      this.pos = close + 1;
      this.push('STRING', input.slice(start + 1, close), 0, start, this.pos);
      return;
    }
    const { value, end } = readGoQuoted(input, start, (at, msg) => this.error(at, msg));
    this.pos = end;
    this.push('STRING', value, 0, start, end);
  }

  private range(): void {
    const { input } = this;
    const start = this.pos;
    const close = input.indexOf(']', start + 1);
    // Loki reads a range character by character: its errors are at line 0.
    if (close < 0) throw this.error(start, "missing closing ']' in duration", true);
    const text = input.slice(start + 1, close);
    let ns: number;
    try {
      ns = modelParseDuration(text) * 1e6;
    } catch (err) {
      throw this.error(start, (err as Error).message, true);
    }
    this.pos = close + 1;
    this.push('RANGE', text, ns, start, this.pos);
  }

  private push(type: TokenType, value: string, num: number, start: number, end: number): void {
    this.tokens.push({ type, value, num, start, end });
  }

  private error(offset: number, reason: string, lineless = false): ParseError {
    return ParseError.at(this.input, offset, reason, lineless);
  }
}

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  '\\': 0x5c,
  '"': 0x22,
};

/**
 * Reads a Go double-quoted string at `input[start]`. `\x` and octal escapes are bytes, so the
 * value is assembled as UTF-8 and decoded at the end (invalid sequences become U+FFFD). As
 * Loki's lexer (Go's text/scanner, then Prometheus's `strutil.Unquote`), errors are reported at
 * the opening quote: a malformed escape or a missing closing quote as the scanner finds them,
 * then an octal escape over 255 or a code point over U+10FFFF as `invalid syntax`; a surrogate
 * code point is taken, as U+FFFD.
 */
export function readGoQuoted(
  input: string,
  start: number,
  fail: (offset: number, reason: string) => Error,
): { value: string; end: number } {
  let i = start + 1;
  let plainStart = i;
  let bytes: number[] | undefined;
  let out = '';
  // Found while unquoting, reported only once the scanner read the whole literal.
  let unquoteError = false;
  const flushPlain = (to: number): void => {
    if (to > plainStart) {
      if (bytes !== undefined) pushUtf8(bytes, input.slice(plainStart, to));
      else out += input.slice(plainStart, to);
    }
  };
  for (;;) {
    if (i >= input.length || input[i] === '\n') throw fail(start, 'literal not terminated');
    const c = input[i];
    if (c === '"') {
      if (unquoteError) throw fail(start, 'invalid syntax');
      flushPlain(i);
      const value = bytes === undefined ? out : Buffer.from(bytes).toString('utf8');
      return { value, end: i + 1 };
    }
    if (c !== '\\') {
      i++;
      continue;
    }
    flushPlain(i);
    const esc = input[i + 1];
    let consumed = 2;
    let byteValues: number[] | undefined;
    let codePoint: number | undefined;
    if (esc !== undefined && SIMPLE_ESCAPES[esc] !== undefined) {
      codePoint = SIMPLE_ESCAPES[esc];
    } else if (esc === 'x') {
      const hex = input.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw fail(start, 'invalid char escape');
      byteValues = [parseInt(hex, 16)];
      consumed = 4;
    } else if (esc !== undefined && esc >= '0' && esc <= '7') {
      const oct = input.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct)) throw fail(start, 'invalid char escape');
      if (parseInt(oct, 8) > 255) unquoteError = true;
      byteValues = [parseInt(oct, 8) & 0xff];
      consumed = 4;
    } else if (esc === 'u' || esc === 'U') {
      const n = esc === 'u' ? 4 : 8;
      const hex = input.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw fail(start, 'invalid char escape');
      codePoint = parseInt(hex, 16);
      if (codePoint > 0x10ffff) {
        unquoteError = true;
        codePoint = 0xfffd;
      } else if (codePoint >= 0xd800 && codePoint < 0xe000) {
        codePoint = 0xfffd;
      }
      consumed = 2 + n;
    } else {
      throw fail(start, 'invalid char escape');
    }
    if (byteValues !== undefined) {
      if (bytes === undefined) {
        bytes = [];
        pushUtf8(bytes, out);
      }
      bytes.push(...byteValues);
    } else if (codePoint !== undefined) {
      const s = String.fromCodePoint(codePoint);
      if (bytes !== undefined) pushUtf8(bytes, s);
      else out += s;
    }
    i += consumed;
    plainStart = i;
  }
}

function pushUtf8(bytes: number[], s: string): void {
  for (const b of Buffer.from(s, 'utf8')) bytes.push(b);
}

function tryParse(fn: () => number): number | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function skipSpaces(input: string, from: number): number {
  let i = from;
  while (i < input.length && /\s/u.test(input[i])) i++;
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isIdentStart(c: string): boolean {
  return c === '_' || /\p{L}/u.test(c);
}

function isIdentPart(c: string): boolean {
  return c === '_' || /[\p{L}\p{Nd}]/u.test(c);
}
