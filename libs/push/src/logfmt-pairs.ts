/**
 * The key/value scanner of Loki's logfmt decoder (`pkg/logql/log/logfmt/decode.go`), as the
 * distributor's level detection drives it: `next()` is `ScanKeyval`, false at the end of the
 * line or at the first syntax error (an `=` or `"` where Go's decoder refuses it, an empty or
 * invalid UTF-8 key, a bad escape or a missing closing quote). Offsets index the line.
 */
export class LogfmtPairs {
  private pos = 0;
  keyStart = 0;
  keyEnd = 0;
  /** Whether the key has bytes above 0x7f (then compare it as text, see `key()`). */
  multibyteKey = false;
  /** False for a bare key and for an empty value (`a=`, `a=""`). */
  hasValue = false;
  /** The value's bytes in the line, when it had no escapes. */
  valueStart = 0;
  valueEnd = 0;
  /** The unquoted value when it had escapes, else null (the value is in the line). */
  unescaped: string | null = null;

  constructor(public line: Buffer) {}

  /** Starts over on `line`: one scanner serves line after line without a new object each. */
  reset(line: Buffer): this {
    this.line = line;
    this.pos = 0;
    this.hasValue = false;
    this.unescaped = null;
    return this;
  }

  eol(): boolean {
    return this.pos >= this.line.length;
  }

  key(): string {
    return this.line.toString('utf8', this.keyStart, this.keyEnd);
  }

  next(): boolean {
    const line = this.line;
    const n = line.length;
    this.hasValue = false;
    this.unescaped = null;
    // The offset lives in a local while scanning: a field written per byte is slower.
    let pos = this.pos;
    while (pos < n && line[pos] <= 0x20) pos++;
    if (pos >= n) {
      this.pos = pos;
      return false;
    }
    const start = pos;
    let multibyte = false;
    for (; pos < n; pos++) {
      const c = line[pos];
      if (c === 0x3d) {
        this.keyStart = start;
        this.keyEnd = pos;
        this.multibyteKey = multibyte;
        this.pos = pos;
        // An empty key or one with invalid UTF-8 (or U+FFFD) is a syntax error.
        if (pos === start || (multibyte && !this.validKey())) return false;
        return this.scanValue();
      }
      if (c === 0x22) {
        this.pos = pos;
        return false;
      }
      if (c <= 0x20) break;
      if (c >= 0x80) multibyte = true;
    }
    this.pos = pos;
    this.keyStart = start;
    this.keyEnd = pos;
    this.multibyteKey = multibyte;
    return !multibyte || this.validKey();
  }

  private validKey(): boolean {
    return !this.key().includes('\ufffd');
  }

  private scanValue(): boolean {
    const line = this.line;
    const n = line.length;
    let pos = this.pos + 1;
    this.pos = pos;
    if (pos >= n || line[pos] <= 0x20) return true;
    if (line[pos] === 0x22) return this.scanQuoted();
    const start = pos;
    for (; pos < n; pos++) {
      const c = line[pos];
      if (c === 0x3d || c === 0x22) {
        this.pos = pos;
        return false;
      }
      if (c <= 0x20) break;
    }
    this.pos = pos;
    this.setValue(start, pos);
    return true;
  }

  private setValue(start: number, end: number): void {
    this.valueStart = start;
    this.valueEnd = end;
    this.hasValue = end > start;
  }

  private scanQuoted(): boolean {
    const line = this.line;
    const start = this.pos + 1;
    let hasEsc = false;
    for (let i = start; i < line.length; i++) {
      const c = line[i];
      if (c === 0x5c) {
        hasEsc = true;
        i++;
      } else if (c === 0x22) {
        this.pos = i + 1;
        if (!hasEsc) {
          this.setValue(start, i);
          return true;
        }
        const v = unquote(line, start, i);
        if (v === null) return false;
        this.unescaped = v;
        this.hasValue = v.length > 0;
        return true;
      }
    }
    this.pos = line.length;
    return false;
  }
}

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x27: "'",
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

/** Go's `strconv.ParseUint(s, 16, 64)` on four bytes: hex digits only, or -1. */
function hex4(b: Buffer, at: number, end: number): number {
  if (at + 4 > end) return -1;
  const s = b.toString('latin1', at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : -1;
}

/**
 * The decoder's `unquoteBytes` on the text between the quotes: JSON escapes plus `\'`, a
 * surrogate pair or else U+FFFD for `\uD8xx`; any other escape makes the value invalid (null).
 */
function unquote(b: Buffer, start: number, end: number): string | null {
  let out = '';
  let chunk = start;
  let i = start;
  while (i < end) {
    if (b[i] !== 0x5c) {
      i++;
      continue;
    }
    out += b.toString('utf8', chunk, i);
    if (i + 1 >= end) return null;
    const simple = SIMPLE_ESCAPES[b[i + 1]];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (b[i + 1] === 0x75) {
      let code = hex4(b, i + 2, end);
      if (code < 0) return null;
      i += 6;
      if (code >= 0xd800 && code < 0xe000) {
        const low = b[i] === 0x5c && b[i + 1] === 0x75 ? hex4(b, i + 2, end) : -1;
        if (code < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        } else code = 0xfffd;
      }
      out += String.fromCodePoint(code);
    } else return null;
    chunk = i;
  }
  return out + b.toString('utf8', chunk, end);
}
