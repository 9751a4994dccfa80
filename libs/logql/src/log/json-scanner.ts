/**
 * A small JSON scanner over Buffers that walks objects without building them, with the
 * leniency and error messages of `github.com/buger/jsonparser`, which Loki's `| json` uses:
 * values are located by scanning, object members are visited one by one, and trailing bytes
 * after the top-level object are ignored.
 */
import { decodeUtf8AsGo } from '@logsvc/gotemplate';

export enum JsonType {
  String,
  Number,
  Boolean,
  Null,
  Object,
  Array,
}

export const JSON_ERRORS = {
  malformedJson: 'Malformed JSON error',
  malformedObject: "Value looks like object, but can't find closing '}' symbol",
  malformedArray: "Value is array, but can't find closing ']' symbol",
  malformedString: "Value is string, but can't find closing '\"' symbol",
  malformedEscape: 'Encountered an invalid escape sequence in a string',
  unknownValueType: 'Unknown value type',
} as const;

export class JsonScanError extends Error {
  constructor(message: string) {
    // Thrown once per malformed line and always caught: capturing a stack trace here cost
    // more than parsing (most of a json query over non-JSON lines).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'JsonScanError';
  }
}

/** Offset of the first non-whitespace byte at or after `pos` (before `end`), or -1. */
export function nextToken(b: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return -1;
}

/**
 * Given `pos` just after an opening quote, the offset just after the closing quote, or -1.
 * Sets `scanState.escaped` when the string contains a backslash and `scanState.high` when it
 * contains non-ASCII bytes.
 */
export const scanState = { escaped: false, high: false };

export function stringEnd(b: Buffer, pos: number, end: number): number {
  let escaped = false;
  let high = false;
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (c === 0x22) {
      if (!escaped || countBackslashesBefore(b, i, pos) % 2 === 0) {
        scanState.escaped = escaped;
        scanState.high = high;
        return i + 1;
      }
    } else if (c === 0x5c) escaped = true;
    else if (c >= 0x80) high = true;
  }
  scanState.escaped = escaped;
  scanState.high = high;
  return -1;
}

function countBackslashesBefore(b: Buffer, i: number, floor: number): number {
  let n = 0;
  for (let j = i - 1; j >= floor && b[j] === 0x5c; j--) n++;
  return n;
}

/** Offset just after the block closing the one opening at `pos`, or -1 (strings skipped). */
export function blockEnd(b: Buffer, pos: number, end: number, open: number, close: number): number {
  let level = 0;
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (c === 0x22) {
      const se = stringEnd(b, i + 1, end);
      if (se < 0) return -1;
      i = se - 1;
    } else if (c === open) level++;
    else if (c === close) {
      level--;
      if (level === 0) return i + 1;
    }
  }
  return -1;
}

function tokenEnd(b: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (
      c === 0x20 ||
      c === 0x0a ||
      c === 0x0d ||
      c === 0x09 ||
      c === 0x2c ||
      c === 0x7d ||
      c === 0x5d
    ) {
      return i;
    }
  }
  return end;
}

/** The value found by `readValue`: its type and byte range (strings without their quotes). */
export interface JsonValue {
  type: JsonType;
  start: number;
  end: number;
  /** Offset just after the value (after the closing quote for strings). */
  next: number;
  /** For strings: whether there are escapes / non-ASCII bytes to handle when decoding. */
  escaped: boolean;
  high: boolean;
}

function bytesEqual(b: Buffer, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[start + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** jsonparser's `Get` without keys: locates the value starting at the first token after `pos`. */
export function readValue(b: Buffer, pos: number, end: number, out: JsonValue): void {
  const at = nextToken(b, pos, end);
  if (at < 0) throw new JsonScanError(JSON_ERRORS.malformedJson);
  const c = b[at];
  out.escaped = false;
  out.high = false;
  if (c === 0x22) {
    const se = stringEnd(b, at + 1, end);
    if (se < 0) throw new JsonScanError(JSON_ERRORS.malformedString);
    out.type = JsonType.String;
    out.start = at + 1;
    out.end = se - 1;
    out.next = se;
    out.escaped = scanState.escaped;
    out.high = scanState.high;
    return;
  }
  if (c === 0x5b || c === 0x7b) {
    const isArray = c === 0x5b;
    const be = blockEnd(b, at, end, c, isArray ? 0x5d : 0x7d);
    if (be < 0) {
      throw new JsonScanError(isArray ? JSON_ERRORS.malformedArray : JSON_ERRORS.malformedObject);
    }
    out.type = isArray ? JsonType.Array : JsonType.Object;
    out.start = at;
    out.end = be;
    out.next = be;
    return;
  }
  const te = tokenEnd(b, at, end);
  if (c === 0x74 || c === 0x66) {
    if (!bytesEqual(b, at, te, 'true') && !bytesEqual(b, at, te, 'false')) {
      throw new JsonScanError(JSON_ERRORS.unknownValueType);
    }
    out.type = JsonType.Boolean;
  } else if (c === 0x75 || c === 0x6e) {
    if (!bytesEqual(b, at, te, 'null')) throw new JsonScanError(JSON_ERRORS.unknownValueType);
    out.type = JsonType.Null;
  } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
    out.type = JsonType.Number;
  } else {
    throw new JsonScanError(JSON_ERRORS.unknownValueType);
  }
  out.start = at;
  out.end = te;
  out.next = te;
}

export function newJsonValue(): JsonValue {
  return { type: JsonType.Null, start: 0, end: 0, next: 0, escaped: false, high: false };
}

/**
 * Called for each member of an object: the key's byte range (escaped keys are passed
 * decoded in `decodedKey`) and the value. Return false to stop the walk.
 */
export type MemberVisitor = (
  b: Buffer,
  keyStart: number,
  keyEnd: number,
  decodedKey: string | null,
  value: JsonValue,
) => boolean | void;

/**
 * jsonparser's `ObjectEach` on `b[pos, end)`: the first token must open an object; members
 * are visited in order. Throws JsonScanError with jsonparser's message on malformed input.
 */
export function eachMember(
  b: Buffer,
  pos: number,
  end: number,
  visit: MemberVisitor,
  value: JsonValue,
): void {
  let off = nextToken(b, pos, end);
  if (off < 0 || b[off] !== 0x7b) throw new JsonScanError(JSON_ERRORS.malformedObject);
  off = nextToken(b, off + 1, end);
  if (off < 0) throw new JsonScanError(JSON_ERRORS.malformedJson);
  if (b[off] === 0x7d) return;
  while (off < end) {
    const c = b[off];
    if (c === 0x7d) return;
    if (c !== 0x22) throw new JsonScanError(JSON_ERRORS.malformedObject);
    const keyStart = off + 1;
    const se = stringEnd(b, keyStart, end);
    if (se < 0) throw new JsonScanError(JSON_ERRORS.malformedJson);
    const keyEnd = se - 1;
    let decodedKey: string | null = null;
    if (scanState.escaped) {
      decodedKey = unescapeJson(b, keyStart, keyEnd);
      if (decodedKey === null) throw new JsonScanError(JSON_ERRORS.malformedEscape);
    }
    off = nextToken(b, se, end);
    if (off < 0 || b[off] !== 0x3a) throw new JsonScanError(JSON_ERRORS.malformedJson);
    readValue(b, off + 1, end, value);
    const next = value.next;
    if (visit(b, keyStart, keyEnd, decodedKey, value) === false) return;
    off = nextToken(b, next, end);
    if (off < 0) throw new JsonScanError(JSON_ERRORS.malformedArray);
    if (b[off] === 0x7d) return;
    if (b[off] !== 0x2c) throw new JsonScanError(JSON_ERRORS.malformedObject);
    off = nextToken(b, off + 1, end);
    if (off < 0) throw new JsonScanError(JSON_ERRORS.malformedArray);
  }
  throw new JsonScanError(JSON_ERRORS.malformedObject);
}

const SIMPLE_UNESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

function hex4(b: Buffer, pos: number, end: number): number {
  if (pos + 4 > end) return -1;
  let v = 0;
  for (let i = pos; i < pos + 4; i++) {
    const c = b[i];
    const d =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/**
 * Decodes the JSON string body `b[start, end)` (without quotes), or returns null on a bad
 * escape. Invalid UTF-8 becomes U+FFFD, as Go's conversions do.
 */
export function unescapeJson(b: Buffer, start: number, end: number): string | null {
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
    const e = b[i + 1];
    const simple = SIMPLE_UNESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (e === 0x75) {
      let code = hex4(b, i + 2, end);
      if (code < 0) return null;
      i += 6;
      if (code >= 0xd800 && code < 0xdc00) {
        const low = b[i] === 0x5c && b[i + 1] === 0x75 ? hex4(b, i + 2, end) : -1;
        if (low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        } else code = 0xfffd;
      } else if (code >= 0xdc00 && code < 0xe000) code = 0xfffd;
      out += String.fromCodePoint(code);
    } else return null;
    chunk = i;
  }
  return out + b.toString('utf8', chunk, end);
}

interface NativeSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const HAS_NATIVE_SLICES =
  typeof (Buffer.prototype as unknown as Partial<NativeSlices>).latin1Slice === 'function' &&
  typeof (Buffer.prototype as unknown as Partial<NativeSlices>).utf8Slice === 'function';

/**
 * Decodes `b[start, end)`: bytes known to be ASCII take the one-byte-string path. Calls
 * Buffer's native slice methods directly when present (skips `toString`'s argument handling).
 */
export function bytesToString(b: Buffer, start: number, end: number, ascii: boolean): string {
  if (!HAS_NATIVE_SLICES) return b.toString(ascii ? 'latin1' : 'utf8', start, end);
  const n = b as unknown as NativeSlices;
  return ascii ? n.latin1Slice(start, end) : n.utf8Slice(start, end);
}

/** Decodes a string value found by the scanner. */
export function stringValue(b: Buffer, v: JsonValue): string | null {
  if (!v.escaped) return bytesToString(b, v.start, v.end, !v.high);
  return unescapeJson(b, v.start, v.end);
}

/**
 * A JSON string body as Loki 3.4's `unescapeJSONString` makes a label value of it: a bad
 * escape gives `''`, and every U+FFFD (each invalid UTF-8 byte, as Go decodes them one by
 * one, a lone surrogate escape, or the character itself) becomes a space.
 */
export function lokiJsonString(
  b: Buffer,
  start: number,
  end: number,
  escaped: boolean,
  high: boolean,
): string {
  if (!escaped) {
    if (!high) return bytesToString(b, start, end, true);
    const s = bytesToString(b, start, end, false);
    if (!s.includes('\uFFFD')) return s;
    return decodeUtf8AsGo(b.subarray(start, end)).replace(/\uFFFD/g, ' ');
  }
  const s = unescapeJson(b, start, end);
  if (s === null) return '';
  if (!s.includes('\uFFFD')) return s;
  return high ? goUnescapeJson(b, start, end).replace(/\uFFFD/g, ' ') : s.replace(/\uFFFD/g, ' ');
}

/** unescapeJson with Go's one-U+FFFD-per-invalid-byte decoding of the raw parts. */
function goUnescapeJson(b: Buffer, start: number, end: number): string {
  let out = '';
  let chunk = start;
  for (let i = start; i < end; i++) {
    if (b[i] < 0x80) continue;
    let j = i;
    while (j < end && b[j] >= 0x80) j++;
    out += unescapeJson(b, chunk, i) ?? '';
    out += decodeUtf8AsGo(b.subarray(i, j));
    chunk = j;
    i = j - 1;
  }
  return out + (unescapeJson(b, chunk, end) ?? '');
}
