import { getLabel, type Labels } from '@logsvc/api';
import { equalFold } from '@logsvc/gocompat';
import { stringEnd } from './json-scan';
import { LogfmtPairs } from './logfmt-pairs';

export const DETECTED_LEVEL = 'detected_level';

/** Loki's level names and what they stand for (compared up to case). */
export const LEVEL_ALIASES: ReadonlyMap<string, string> = new Map<string, string>(
  Object.entries({
    trace: 'trace',
    trc: 'trace',
    debug: 'debug',
    dbg: 'debug',
    info: 'info',
    inf: 'info',
    warn: 'warn',
    wrn: 'warn',
    warning: 'warn',
    error: 'error',
    err: 'error',
    critical: 'critical',
    fatal: 'fatal',
  }),
);

const NO_LINE = Buffer.alloc(0);

/** The aliases as bytes, each with its level. */
const ALIAS_BYTES = [...LEVEL_ALIASES].map(([alias, level]) => ({
  bytes: Buffer.from(alias),
  level,
}));

/**
 * The level a value names, compared as Loki does (`bytes.EqualFold` against each alias). The
 * aliases hold no letter that a non-ASCII one folds to (k, s), so ASCII folding is exact.
 */
function levelOfBytes(value: Buffer, start: number, end: number): string | undefined {
  const len = end - start;
  for (const a of ALIAS_BYTES)
    if (a.bytes.length === len && asciiEqualFold(value, start, a.bytes)) return a.level;
  return undefined;
}

/** The level a value as text names (see `levelOfBytes`). */
function levelOfText(value: string): string | undefined {
  return LEVEL_ALIASES.get(value.toLowerCase());
}

/** Loki's substring heuristics, in priority order: the first level with any needle in the line wins. */
const HEURISTICS: [RegExp, string][] = [
  [/info|INFO/, 'info'],
  [/err:|ERR:|error|ERROR/, 'error'],
  [/warn:|WARN:|warning|WARNING/, 'warn'],
  [/CRITICAL:|critical:/, 'critical'],
  [/debug:|DEBUG:/, 'debug'],
];
// Fixed ASCII needles only (never user input), so a JS RegExp is safe here. Measured against a
// scan of the bytes in JavaScript, the line's Latin-1 copy and this regex took half the time.
const ANY_HEURISTIC = new RegExp(HEURISTICS.map(([re]) => re.source).join('|'));

/**
 * The heuristic level of a line. Latin-1 maps each byte to one char, so the ASCII needles
 * match exactly as on the bytes; one combined scan settles the common "no level" case.
 */
export function levelFromHeuristics(line: Buffer | string): string {
  const text = typeof line === 'string' ? line : line.toString('latin1');
  if (!ANY_HEURISTIC.test(text)) return 'unknown';
  for (const [re, level] of HEURISTICS) if (re.test(text)) return level;
  return 'unknown';
}

/** OTLP severity_number ranges: 1-4 trace, 5-8 debug, 9-12 info, 13-16 warn, 17-20 error, 21-24 fatal. */
export function levelFromSeverityNumber(text: string): string {
  const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(n)) return 'info';
  if (n <= 0) return 'unknown';
  if (n <= 4) return 'trace';
  if (n <= 8) return 'debug';
  if (n <= 12) return 'info';
  if (n <= 16) return 'warn';
  if (n <= 20) return 'error';
  if (n <= 24) return 'fatal';
  return 'unknown';
}

/** Detectors by their field list: tenants share a handful of lists, requests reuse them. */
const detectors = new Map<string, LevelDetector>();
const MAX_DETECTORS = 64;

/** The detector for these log_level_fields, built once (its regexes are compiled once). */
export function levelDetectorFor(logLevelFields: readonly string[]): LevelDetector {
  const key = logLevelFields.join('\u0000');
  let detector = detectors.get(key);
  if (detector === undefined) {
    if (detectors.size >= MAX_DETECTORS) detectors.clear();
    detector = new LevelDetector(logLevelFields);
    detectors.set(key, detector);
  }
  return detector;
}

/**
 * Finds an entry's `detected_level` the way Loki 3.4's distributor does. It keeps no state
 * between calls: get a shared one from `levelDetectorFor`.
 */
export class LevelDetector {
  private readonly fields: readonly string[];
  /** Field names as bytes, to compare keys in place without building strings. */
  private readonly fieldBytes: Buffer[];
  /** Whether every field is ASCII, so a key of ASCII bytes can be folded byte by byte. */
  private readonly asciiFields: boolean;
  /** Bit n set when some field is n bytes long (n < 31), or any field is longer. */
  private readonly fieldLengths: number;
  /** The logfmt scanner, reset for each line (detection is synchronous). */
  private readonly pairs = new LogfmtPairs(NO_LINE);

  constructor(logLevelFields: readonly string[]) {
    this.fields = logLevelFields;
    this.fieldBytes = logLevelFields.map((f) => Buffer.from(f));
    this.asciiFields = this.fieldBytes.every((b, i) => b.length === logLevelFields[i].length);
    this.fieldLengths = this.fieldBytes.reduce((m, b) => m | lengthBit(b.length), 0);
  }

  /** The level from a stream label named in log_level_fields (verbatim), if any. */
  fromLabels(labels: Labels): string | undefined {
    for (const f of this.fields) {
      const v = getLabel(labels, f);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** The level of one entry whose stream labels carry none. */
  fromEntry(metadata: Labels, line: Buffer): string {
    if (metadata.length > 0) {
      for (const f of this.fields) {
        const v = getLabel(metadata, f);
        if (v !== undefined) return v;
      }
      const severity = getLabel(metadata, 'severity_number');
      if (severity !== undefined) return levelFromSeverityNumber(severity);
    }
    return this.fromLine(line);
  }

  /**
   * The level named by a JSON line's top-level field or a logfmt pair from log_level_fields;
   * else the heuristics. Loki takes a line with an `=` for logfmt; decoding one without gives
   * bare keys only, which yield no value either, so no search for `=` is needed.
   */
  fromLine(line: Buffer): string {
    if (this.fields.length > 0) {
      const level = looksLikeJson(line) ? this.jsonLevel(line) : this.logfmtLevel(line);
      if (level !== undefined) return level;
    }
    return levelFromHeuristics(line);
  }

  /** Index of the field whose bytes are exactly line[start, end), or -1. */
  private fieldAt(line: Buffer, start: number, end: number): number {
    const len = end - start;
    for (let i = 0; i < this.fieldBytes.length; i++) {
      const f = this.fieldBytes[i];
      if (f.length === len && bytesAt(line, start, f)) return i;
    }
    return -1;
  }

  /**
   * The level in the value of the top-level JSON key that comes first in log_level_fields.
   * Keys and values compare raw, escapes and all, as Loki's JSON parser hands them over.
   */
  private jsonLevel(line: Buffer): string | undefined {
    let best = this.fields.length;
    let valueStart = 0;
    let valueEnd = 0;
    let pos = skipWs(line, 0) + 1;
    while (pos < line.length) {
      pos = skipWs(line, pos);
      if (line[pos] !== 0x22) break;
      const keyEnd = stringEnd(line, pos);
      if (keyEnd < 0) break;
      const idx = this.fieldAt(line, pos + 1, keyEnd - 1);
      pos = skipWs(line, keyEnd);
      if (line[pos] !== 0x3a) break;
      pos = skipWs(line, pos + 1);
      const end = jsonValueEnd(line, pos);
      if (end < 0) break;
      if (idx >= 0 && idx < best) {
        best = idx;
        const quoted = line[pos] === 0x22;
        valueStart = quoted ? pos + 1 : pos;
        valueEnd = quoted ? end - 1 : end;
        if (idx === 0) break;
      }
      pos = skipWs(line, end);
      if (line[pos] !== 0x2c) break;
      pos++;
    }
    return best < this.fields.length ? levelOfBytes(line, valueStart, valueEnd) : undefined;
  }

  /**
   * Loki's `getValueUsingLogfmtParser`: decodes pairs until the end of the line or the first
   * syntax error, and keeps the value of the key (compared with Go's `strings.EqualFold`)
   * that comes first in log_level_fields; the first field ends the scan at once. A bare key
   * counts too, with no value, so `level lvl=warn` finds no level in the pairs.
   */
  private logfmtLevel(line: Buffer): string | undefined {
    const pairs = this.pairs.reset(line);
    let best = this.fields.length;
    let level: string | undefined;
    while (!pairs.eol() && pairs.next()) {
      const idx = this.foldedFieldIndex(pairs, best);
      if (idx < 0) continue;
      best = idx;
      // The level of the best field so far: a later key earlier in the list replaces it.
      if (!pairs.hasValue) level = undefined;
      else if (pairs.unescaped !== null) level = levelOfText(pairs.unescaped);
      else level = levelOfBytes(line, pairs.valueStart, pairs.valueEnd);
      if (idx === 0) break;
    }
    // Not kept past the call: the line is a view of a request body.
    pairs.reset(NO_LINE);
    return level;
  }

  /** Index of the first field before `limit` that equals the pair's key up to case, or -1. */
  private foldedFieldIndex(pairs: LogfmtPairs, limit: number): number {
    if (pairs.multibyteKey || !this.asciiFields) {
      // Go folds some non-ASCII letters to ASCII ones (U+212A to k): compare as text.
      const key = pairs.key();
      for (let i = 0; i < limit; i++) if (equalFold(key, this.fields[i])) return i;
      return -1;
    }
    const line = pairs.line;
    const start = pairs.keyStart;
    const len = pairs.keyEnd - start;
    // Most keys of a line have a length no field has.
    if ((this.fieldLengths & lengthBit(len)) === 0) return -1;
    for (let i = 0; i < limit; i++) {
      const f = this.fieldBytes[i];
      if (f.length === len && asciiEqualFold(line, start, f)) return i;
    }
    return -1;
  }
}

function bytesAt(line: Buffer, start: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (line[start + i] !== bytes[i]) return false;
  return true;
}

/** A key length as one bit of a mask; every length from 31 on shares the top bit. */
function lengthBit(length: number): number {
  return 1 << Math.min(length, 31);
}

/** Whether line[start, start + field.length) equals the ASCII `field` up to ASCII case. */
function asciiEqualFold(line: Buffer, start: number, field: Buffer): boolean {
  for (let i = 0; i < field.length; i++) {
    const a = line[start + i];
    const b = field[i];
    if (a !== b && lowerAscii(a) !== lowerAscii(b)) return false;
  }
  return true;
}

function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}

function skipWs(b: Buffer, pos: number): number {
  while (pos < b.length && isWs(b[pos])) pos++;
  return pos;
}

function looksLikeJson(line: Buffer): boolean {
  const start = skipWs(line, 0);
  let end = line.length - 1;
  while (end > start && isWs(line[end])) end--;
  return start < end && line[start] === 0x7b && line[end] === 0x7d;
}

/** Offset just past the JSON value starting at `pos`, or -1 when malformed. */
function jsonValueEnd(b: Buffer, pos: number): number {
  const c = b[pos];
  if (c === 0x22) return stringEnd(b, pos);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let i = pos; i < b.length; i++) {
      const x = b[i];
      if (x === 0x22) {
        i = stringEnd(b, i) - 1;
        if (i < 0) return -1;
      } else if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = pos;
  while (i < b.length && b[i] !== 0x2c && b[i] !== 0x7d && !isWs(b[i])) i++;
  return i === pos ? -1 : i;
}
