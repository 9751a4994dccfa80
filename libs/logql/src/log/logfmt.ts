/**
 * `| logfmt [--strict] [--keep-empty] [params]`, with the decoder of Loki's
 * `pkg/logql/log/logfmt/decode.go`: bare keys and empty values are skipped unless
 * `--keep-empty`; malformed pairs are skipped, or with `--strict` stop parsing and set
 * `__error__=LogfmtParserErr` with details like `logfmt syntax error at pos 8 : unexpected '='`.
 */
import { logfmtExpressionKey } from './logfmt-expr';
import { isValidLabelName } from '@logsvc/api';
import { ERR_LOGFMT, StageBuildError } from './errors';
import type { ExtractionParam } from './json-expr';
import { bytesToString, unescapeJson } from './json-scanner';
import { decodeUtf8AsGo } from '@logsvc/gotemplate';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import { LogfmtKeyNeedles, NO_KEY, PARSE_LINE } from './logfmt-key-needles';
import { AsciiInterner } from './ascii-interner';
import type { ParserHints } from './parser-hints';
import type { Stage } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

enum LogfmtErrorKind {
  Unexpected,
  InvalidQuoted,
  Unterminated,
}

/** Scans one line's key/value pairs in place; offsets index the line buffer. */
export class LogfmtDecoder {
  private line: Buffer = Buffer.alloc(0);
  private pos = 0;
  keyStart = 0;
  keyEnd = 0;
  /** Value range, or a decoded string when the quoted value had escapes. */
  valueStart = 0;
  valueEnd = 0;
  decodedValue: string | null = null;
  /**
   * The last syntax error, kept as its parts: most lines of a mixed stream have some, and
   * only `--strict` reads the message (`err`).
   */
  private errPos = -1;
  private errKind: LogfmtErrorKind = LogfmtErrorKind.Unexpected;
  private errChar = 0;

  reset(line: Buffer): void {
    this.line = line;
    this.pos = 0;
    this.errPos = -1;
  }

  /** The last syntax error's message (`logfmt syntax error at pos 8 : unexpected '='`), or null. */
  get err(): string | null {
    if (this.errPos < 0) return null;
    return `logfmt syntax error at pos ${this.errPos + 1} : ${this.errMessage()}`;
  }

  private errMessage(): string {
    switch (this.errKind) {
      case LogfmtErrorKind.Unexpected: {
        const c = this.errChar;
        const ch = c === 0x27 ? "\\'" : c === 0x5c ? '\\\\' : String.fromCharCode(c);
        return `unexpected '${ch}'`;
      }
      case LogfmtErrorKind.InvalidQuoted:
        return 'invalid quoted value';
      case LogfmtErrorKind.Unterminated:
        return 'unterminated quoted value';
    }
  }

  eol(): boolean {
    return this.pos >= this.line.length;
  }

  hasKey(): boolean {
    return this.keyEnd > this.keyStart;
  }

  private syntaxError(kind: LogfmtErrorKind): void {
    this.errPos = this.pos;
    this.errKind = kind;
  }

  private unexpected(c: number): void {
    this.syntaxError(LogfmtErrorKind.Unexpected);
    this.errChar = c;
  }

  private skipValue(): false {
    const line = this.line;
    while (this.pos < line.length && line[this.pos] > 0x20) this.pos++;
    return false;
  }

  /** Advances to the next pair; false at the end of the line or on a malformed pair. */
  scanKeyval(): boolean {
    const line = this.line;
    const n = line.length;
    this.keyStart = this.keyEnd = 0;
    this.valueStart = this.valueEnd = 0;
    this.decodedValue = null;
    while (this.pos < n && line[this.pos] <= 0x20) this.pos++;
    if (this.pos >= n) return false;
    const start = this.pos;
    for (; this.pos < n; this.pos++) {
      const c = line[this.pos];
      if (c === 0x3d) {
        if (this.pos === start) {
          this.unexpected(c);
          return this.skipValue();
        }
        this.keyStart = start;
        this.keyEnd = this.pos;
        return this.scanValue();
      }
      if (c === 0x22) {
        this.unexpected(c);
        return this.skipValue();
      }
      if (c <= 0x20) {
        this.keyStart = start;
        this.keyEnd = this.pos;
        return true;
      }
    }
    this.keyStart = start;
    this.keyEnd = n;
    return true;
  }

  private scanValue(): boolean {
    const line = this.line;
    const n = line.length;
    this.pos++;
    if (this.pos >= n) return true;
    const first = line[this.pos];
    if (first <= 0x20) return true;
    if (first === 0x22) return this.scanQuoted();
    const start = this.pos;
    for (; this.pos < n; this.pos++) {
      const c = line[this.pos];
      if (c === 0x3d || c === 0x22) {
        this.unexpected(c);
        return this.skipValue();
      }
      if (c <= 0x20) break;
    }
    this.valueStart = start;
    this.valueEnd = this.pos;
    return true;
  }

  private scanQuoted(): boolean {
    const line = this.line;
    const start = this.pos;
    let hasEsc = false;
    let esc = false;
    for (let i = start + 1; i < line.length; i++) {
      const c = line[i];
      if (esc) esc = false;
      else if (c === 0x5c) hasEsc = esc = true;
      else if (c === 0x22) {
        this.pos = i + 1;
        if (hasEsc) {
          const v = unescapeJson(line, start + 1, i);
          if (v === null) {
            this.syntaxError(LogfmtErrorKind.InvalidQuoted);
            return false;
          }
          this.decodedValue = v;
        } else {
          this.valueStart = start + 1;
          this.valueEnd = i;
        }
        return true;
      }
    }
    this.pos = line.length;
    this.syntaxError(LogfmtErrorKind.Unterminated);
    return false;
  }

  /**
   * The current value as a string. As in Loki 3.4, every U+FFFD (each invalid UTF-8 byte, as
   * Go decodes them one by one, or the character itself) becomes a space.
   */
  value(): string {
    const v = this.decodedValue;
    if (v === null) return rawValue(this.line, this.valueStart, this.valueEnd);
    return v.includes('\ufffd') ? v.replace(/\ufffd/g, ' ') : v;
  }

  valueIsEmpty(): boolean {
    return this.decodedValue === null
      ? this.valueEnd === this.valueStart
      : this.decodedValue === '';
  }

  keyLatin1(): string {
    return bytesToString(this.line, this.keyStart, this.keyEnd, true);
  }

  key(): string {
    return bytesToString(this.line, this.keyStart, this.keyEnd, false);
  }
}

/** An unquoted (or escape-free quoted) value `line[start, end)` as `LogfmtDecoder.value` gives it. */
function rawValue(line: Buffer, start: number, end: number): string {
  const v = bytesToString(line, start, end, false);
  if (!v.includes('\ufffd')) return v;
  return decodeUtf8AsGo(line.subarray(start, end)).replace(/\ufffd/g, ' ');
}

export interface LogfmtOptions {
  readonly strict?: boolean;
  readonly keepEmpty?: boolean;
}

const MAX_CACHED_KEYS = 1024;

/** `| logfmt [flags]`: every pair becomes a label. */
export class LogfmtParserStage implements Stage {
  private readonly dec = new LogfmtDecoder();
  private readonly names = new Map<string, string>();
  /** The raw key that set each label on the current line. */
  private readonly setBy = new Map<string, string>();
  private readonly strict: boolean;
  private readonly keepEmpty: boolean;
  /** The line prefilter of the hints it was made for (see LogfmtKeyNeedles). */
  private needles: LogfmtKeyNeedles | null = null;
  private needlesFor: ParserHints | null = null;
  /** The single hinted key as a string, for the bytes it was made of. */
  private singleKey: string | null = null;
  private singleKeyBytes: Buffer | null = null;
  private readonly values = new AsciiInterner();

  constructor(options: LogfmtOptions = {}) {
    this.strict = options.strict ?? false;
    this.keepEmpty = options.keepEmpty ?? false;
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (!this.prefiltered(line, 0, line.length, lbs)) this.parse(line, lbs);
    return line;
  }

  processRange(source: Buffer, start: number, end: number, lbs: LabelsBuilder): boolean {
    if (!this.prefiltered(source, start, end, lbs)) this.parse(source.subarray(start, end), lbs);
    return true;
  }

  /**
   * The checks before a parse of the line `b[start, end)`: true when they settled it (nothing
   * to extract, no wanted key in it, or the hints' one key read from its value).
   */
  private prefiltered(b: Buffer, start: number, end: number, lbs: LabelsBuilder): boolean {
    if (lbs.skipParsers()) return true;
    // Without --strict no error can come of the line: skip it when it cannot give a label.
    if (!this.strict && lbs.parsersExtractNothing()) return true;
    if (this.strict || this.keepEmpty) return false;
    const hints = lbs.hints;
    if (this.needlesFor !== hints) {
      this.needles = LogfmtKeyNeedles.forHints(hints);
      this.needlesFor = hints;
    }
    const needles = this.needles;
    if (needles === null) return false;
    const single = needles.single;
    if (single === null) return !needles.mayHoldKey(b, start, end);
    // One search finds the key and, most often, its value: nothing else is read.
    const at = needles.locate(b, start, end, single);
    if (at === NO_KEY) return true;
    return at !== PARSE_LINE && this.setSingle(b, at, end, single, lbs);
  }

  private parse(line: Buffer, lbs: LabelsBuilder): void {
    const hints = lbs.hints;
    const dec = this.dec;
    dec.reset(line);
    const mark = lbs.parsedMark();
    const setBy = this.setBy;
    setBy.clear();
    while (!dec.eol()) {
      if (!dec.scanKeyval()) {
        if (this.strict) break;
        continue;
      }
      if (!dec.hasKey()) continue;
      // Before the key's name: most skipped pairs of a non-logfmt line are bare words.
      if (!this.keepEmpty && dec.valueIsEmpty()) continue;
      if (!hints.mayWantKey(line, dec.keyStart, dec.keyEnd, 0)) continue;
      const raw = dec.keyLatin1();
      let sanitized = this.names.get(raw);
      if (sanitized === undefined) {
        sanitized = sanitizeLabelKey(dec.key(), true);
        if (this.names.size < MAX_CACHED_KEYS) this.names.set(raw, sanitized);
      }
      if (sanitized.length === 0) continue;
      const name = lbs.extractedName(sanitized);
      // A repeated key keeps its last value, as in Loki 3.4 (unless the hints stopped the scan);
      // another key of the same sanitized name (`k-ey`, `k.ey`) does not replace the first.
      if (!lbs.wants(name) || lbs.extractedBefore(name, mark)) continue;
      const by = setBy.get(name);
      if (by !== undefined && by !== raw) continue;
      if (by === undefined) setBy.set(name, raw);
      lbs.set(LabelCategory.Parsed, name, dec.value());
      // As Loki, the rest of the line is not read once the hints' labels are all there.
      if (lbs.allRequiredExtracted()) break;
    }
    if (this.strict && dec.err !== null) {
      lbs.setParserErr(ERR_LOGFMT, dec.err);
    }
  }

  /**
   * The hints' one key, found by `LogfmtKeyNeedles.locate` with its value at `start` of the
   * line ending at `n`: sets the label from a plain unquoted value, the only pair of the line
   * that can give it (false leaves an empty, quoted or malformed value to a full parse).
   */
  private setSingle(
    line: Buffer,
    start: number,
    n: number,
    key: Buffer,
    lbs: LabelsBuilder,
  ): boolean {
    let end = start;
    let high = false;
    for (; end < n; end++) {
      const c = line[end];
      if (c <= 0x20) break;
      if (c === 0x3d || c === 0x22) return false;
      if (c >= 0x80) high = true;
    }
    if (end === start) return false;
    // The key is the name's letters and digits, which sanitizing keeps.
    if (this.singleKey === null || this.singleKeyBytes !== key) {
      this.singleKey = key.toString('latin1');
      this.singleKeyBytes = key;
    }
    const name = lbs.extractedName(this.singleKey);
    // Any other pair of the line that gives the name gives it under this same label.
    if (!lbs.wants(name) || lbs.extractedBefore(name, lbs.parsedMark())) return true;
    const value = high ? rawValue(line, start, end) : this.values.get(line, start, end);
    lbs.set(LabelCategory.Parsed, name, value);
    return true;
  }
}

/** `| logfmt [flags] a="key", b`: only the listed keys, renamed to their labels. */
export class LogfmtExpressionParserStage implements Stage {
  private readonly dec = new LogfmtDecoder();
  /** Source key → label identifiers reading it. */
  private readonly byKey = new Map<string, string[]>();
  private readonly ids: string[];
  private readonly strict: boolean;
  private readonly keepEmpty: boolean;

  constructor(params: readonly ExtractionParam[], options: LogfmtOptions = {}) {
    if (params.length === 0) throw new StageBuildError('no logfmt expression provided');
    this.strict = options.strict ?? false;
    this.keepEmpty = options.keepEmpty ?? false;
    this.ids = [];
    for (const p of params) {
      let key: string;
      try {
        key = logfmtExpressionKey(p.expression);
      } catch (err) {
        throw new StageBuildError(
          `cannot parse expression [${p.expression}]: ${(err as Error).message}`,
        );
      }
      if (!isValidLabelName(p.identifier)) {
        throw new StageBuildError(`invalid extracted label name '${p.identifier}'`);
      }
      const list = this.byKey.get(key) ?? [];
      list.push(p.identifier);
      this.byKey.set(key, list);
      this.ids.push(p.identifier);
    }
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.skipParsers()) return line;
    for (const id of this.ids) {
      if (lbs.extractedName(id) === id) lbs.set(LabelCategory.Parsed, id, '');
    }
    const dec = this.dec;
    dec.reset(line);
    while (!dec.eol()) {
      if (!dec.scanKeyval()) {
        if (this.strict) break;
        continue;
      }
      if (!dec.hasKey()) continue;
      const ids = this.byKey.get(dec.key());
      if (ids === undefined) continue;
      if (!this.keepEmpty && dec.valueIsEmpty()) continue;
      const value = dec.value();
      for (const id of ids) {
        const name = lbs.extractedName(id);
        lbs.set(LabelCategory.Parsed, name, value);
      }
    }
    if (this.strict && dec.err !== null) {
      lbs.setParserErr(ERR_LOGFMT, dec.err);
    }
    return line;
  }
}
