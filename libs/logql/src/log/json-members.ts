/**
 * Reads one JSON object's members in place for `| json`, with the leniency and error messages
 * of `eachMember` / `readValue` (jsonparser's `ObjectEach`), but without exceptions: a
 * malformed line ends the walk with `error` set. Values are only read as far as finding their
 * end; whether a string has escapes or non-ASCII bytes is worked out for the values a caller
 * decodes (`stringFlags`), not for every value skipped.
 */
import { JSON_ERRORS, JsonType, blockEnd, unescapeJson } from './json-scanner';

const EMPTY = Buffer.alloc(0);

/** Offset of the first non-whitespace byte at or after `pos` (before `end`), or -1. */
function skipWs(b: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return -1;
}

/**
 * Given `pos` just after an opening quote, the offset of the closing quote, or -1. A quote
 * preceded by an odd run of backslashes is escaped: skipping the byte after each backslash
 * finds the same quote as counting them.
 */
function closingQuote(b: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (c === 0x22) return i;
    if (c === 0x5c) i++;
  }
  return -1;
}

function tokenEnd(b: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = b[i];
    if (
      c === 0x2c ||
      c === 0x7d ||
      c === 0x5d ||
      c === 0x20 ||
      c === 0x0a ||
      c === 0x0d ||
      c === 0x09
    ) {
      return i;
    }
  }
  return end;
}

function isWord(b: Buffer, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (b[start + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Bit 1: the bytes hold a backslash; bit 2: a byte >= 0x80. */
export function stringFlags(b: Buffer, start: number, end: number): number {
  let flags = 0;
  for (let i = start; i < end; i++) {
    const c = b[i];
    if (c === 0x5c) flags |= 1;
    else if (c >= 0x80) flags |= 2;
  }
  return flags;
}

export class JsonMembers {
  private b: Buffer = EMPTY;
  private end = 0;
  private off = 0;
  /** No member read yet: the next byte is a key or `}`, not a separator. */
  private first = true;
  keyStart = 0;
  keyEnd = 0;
  /** The key decoded when it has escapes, else null. */
  decodedKey: string | null = null;
  /** The current value: its type and range (strings without their quotes). */
  type: JsonType = JsonType.Null;
  valueStart = 0;
  valueEnd = 0;
  /** jsonparser's message for what ended the walk, or null at the object's end. */
  error: string | null = null;

  /** Starts on the object at the first token of `b[pos, end)`; false (with `error`) if none. */
  open(b: Buffer, pos: number, end: number): boolean {
    this.b = b;
    this.end = end;
    this.error = null;
    this.first = true;
    let off = skipWs(b, pos, end);
    if (off < 0 || b[off] !== 0x7b) return this.fail(JSON_ERRORS.malformedObject);
    off = skipWs(b, off + 1, end);
    if (off < 0) return this.fail(JSON_ERRORS.malformedJson);
    this.off = off;
    return true;
  }

  /** Reads the next member's key; false at the end of the object or on an error. */
  nextKey(): boolean {
    const b = this.b;
    const end = this.end;
    let off = this.off;
    if (!this.first) {
      off = skipWs(b, off, end);
      if (off < 0) return this.fail(JSON_ERRORS.malformedArray);
      if (b[off] === 0x7d) return false;
      if (b[off] !== 0x2c) return this.fail(JSON_ERRORS.malformedObject);
      off = skipWs(b, off + 1, end);
      if (off < 0) return this.fail(JSON_ERRORS.malformedArray);
    }
    this.first = false;
    const c = b[off];
    if (c === 0x7d) return false;
    if (c !== 0x22) return this.fail(JSON_ERRORS.malformedObject);
    const keyStart = off + 1;
    // The closing quote (as `closingQuote`), noting any escape on the way.
    let keyEnd = -1;
    let escaped = false;
    for (let i = keyStart; i < end; i++) {
      const k = b[i];
      if (k === 0x22) {
        keyEnd = i;
        break;
      }
      if (k === 0x5c) {
        escaped = true;
        i++;
      }
    }
    if (keyEnd < 0) return this.fail(JSON_ERRORS.malformedJson);
    this.keyStart = keyStart;
    this.keyEnd = keyEnd;
    this.decodedKey = null;
    if (escaped) {
      this.decodedKey = unescapeJson(b, keyStart, keyEnd);
      if (this.decodedKey === null) return this.fail(JSON_ERRORS.malformedEscape);
    }
    off = skipWs(b, keyEnd + 1, end);
    if (off < 0 || b[off] !== 0x3a) return this.fail(JSON_ERRORS.malformedJson);
    this.off = off + 1;
    return true;
  }

  /** Locates the value after the key just read; false (with `error`) when it is malformed. */
  readValue(): boolean {
    const b = this.b;
    const end = this.end;
    const at = skipWs(b, this.off, end);
    if (at < 0) return this.fail(JSON_ERRORS.malformedJson);
    const c = b[at];
    if (c === 0x22) {
      const close = closingQuote(b, at + 1, end);
      if (close < 0) return this.fail(JSON_ERRORS.malformedString);
      this.set(JsonType.String, at + 1, close, close + 1);
      return true;
    }
    if (c === 0x7b || c === 0x5b) {
      const isArray = c === 0x5b;
      const be = blockEnd(b, at, end, c, isArray ? 0x5d : 0x7d);
      if (be < 0) {
        return this.fail(isArray ? JSON_ERRORS.malformedArray : JSON_ERRORS.malformedObject);
      }
      this.set(isArray ? JsonType.Array : JsonType.Object, at, be, be);
      return true;
    }
    const te = tokenEnd(b, at, end);
    let type: JsonType;
    if (c === 0x74 || c === 0x66) {
      if (!isWord(b, at, te, 'true') && !isWord(b, at, te, 'false')) {
        return this.fail(JSON_ERRORS.unknownValueType);
      }
      type = JsonType.Boolean;
    } else if (c === 0x75 || c === 0x6e) {
      if (!isWord(b, at, te, 'null')) return this.fail(JSON_ERRORS.unknownValueType);
      type = JsonType.Null;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      type = JsonType.Number;
    } else {
      return this.fail(JSON_ERRORS.unknownValueType);
    }
    this.set(type, at, te, te);
    return true;
  }

  private set(type: JsonType, start: number, end: number, next: number): void {
    this.type = type;
    this.valueStart = start;
    this.valueEnd = end;
    this.off = next;
  }

  private fail(message: string): false {
    this.error = message;
    return false;
  }
}
