import { getLabel, type Labels } from '@logsvc/api';
import { equalFold } from '@logsvc/gocompat';
import { LogfmtPairs } from './logfmt-pairs';

export const DETECTED_LEVEL = 'detected_level';

const LEVEL_ALIASES = new Map<string, string>(
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

/** Loki's substring heuristics, in priority order: the first level with any needle in the line wins. */
const HEURISTICS: [RegExp, string][] = [
  [/info|INFO/, 'info'],
  [/err:|ERR:|error|ERROR/, 'error'],
  [/warn:|WARN:|warning|WARNING/, 'warn'],
  [/CRITICAL:|critical:/, 'critical'],
  [/debug:|DEBUG:/, 'debug'],
];
// Fixed ASCII needles only (never user input), so a JS RegExp is safe here.
const HEURISTIC_ALTERNATIVES = HEURISTICS.map(([re]) => re.source).join('|');
const ANY_HEURISTIC = new RegExp(HEURISTIC_ALTERNATIVES);

function matchesAt(line: Buffer, pos: number, needle: Buffer): boolean {
  if (pos + needle.length > line.length) return false;
  for (let i = 1; i < needle.length; i++) if (line[pos + i] !== needle[i]) return false;
  return true;
}

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
  /**
   * Cheap prefilters: a line can only name a level field if it contains `"field"` (JSON keys
   * match exactly) or `field=` in any case (logfmt keys match with Go's EqualFold).
   */
  private readonly jsonKeyHint: RegExp;
  private readonly logfmtKeyHint: RegExp;
  /**
   * Either hint or any heuristic needle: one scan that settles the common case of a line with
   * no level in it at all (an nginx access line) as 'unknown'.
   */
  private readonly anySignal: RegExp;
  /**
   * `"field"` and `field=` of the first level field, found with one byte search: a line that
   * holds one passes `anySignal` and its format's hint for sure, so neither regex (nor the
   * line's text) is needed. Null without fields.
   */
  private readonly firstJsonKey: Buffer | null;
  private readonly firstLogfmtKey: Buffer | null;

  constructor(
    logLevelFields: readonly string[],
    /** False leaves out the byte search (always the regexes), to compare the two. */
    keySearch = true,
  ) {
    this.fields = logLevelFields;
    this.fieldBytes = logLevelFields.map((f) => Buffer.from(f));
    // Escaped literals from the tenant's config: plain alternations, linear to match.
    const exact = logLevelFields.map((f) => escapeRegex(Buffer.from(f).toString('latin1')));
    // Case variants of one name (level, LEVEL, Level) fold to one pattern: keep it once.
    const folded = [...new Set(logLevelFields.map(foldedPattern))];
    const json = `"(?:${exact.join('|')})"`;
    // A field with other non-ASCII characters has case variants of other lengths: any `=`.
    const logfmt = folded.includes(null) ? '=' : `(?:${folded.join('|')})=`;
    const first = keySearch ? logLevelFields[0] : undefined;
    this.firstJsonKey = first === undefined ? null : Buffer.from(`"${first}"`);
    this.firstLogfmtKey = first === undefined ? null : Buffer.from(`${first}=`);
    const none = /(?!)/;
    this.jsonKeyHint = logLevelFields.length > 0 ? new RegExp(json) : none;
    this.logfmtKeyHint = logLevelFields.length > 0 ? new RegExp(logfmt) : none;
    this.anySignal =
      logLevelFields.length > 0
        ? new RegExp(`${logfmt}|${json}|${HEURISTIC_ALTERNATIVES}`)
        : new RegExp(HEURISTIC_ALTERNATIVES);
  }

  private fieldAt(line: Buffer, start: number, end: number): number {
    const len = end - start;
    for (let i = 0; i < this.fieldBytes.length; i++) {
      const f = this.fieldBytes[i];
      if (f.length !== len || f[0] !== line[start]) continue;
      if (matchesAt(line, start, f)) return i;
    }
    return -1;
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

  fromLine(line: Buffer): string {
    const json = looksLikeJson(line);
    // The logfmt search only on lines that start with a key: an access line pays nothing for it.
    const key = json ? this.firstJsonKey : startsWithKey(line) ? this.firstLogfmtKey : null;
    let hinted = key !== null && line.indexOf(key) >= 0;
    let text: string | undefined;
    if (!hinted) {
      // Latin-1 maps each byte to one char, so ASCII patterns match exactly as on the bytes.
      text = line.toString('latin1');
      if (!this.anySignal.test(text)) return 'unknown';
      hinted = (json ? this.jsonKeyHint : this.logfmtKeyHint).test(text);
    }
    if (hinted) {
      const value = json ? this.jsonField(line) : this.logfmtField(line);
      if (value !== undefined) {
        const level = LEVEL_ALIASES.get(value.toLowerCase());
        if (level !== undefined) return level;
      }
    }
    return levelFromHeuristics(text ?? line.toString('latin1'));
  }

  /** Value of the top-level JSON key that comes first in log_level_fields. */
  private jsonField(line: Buffer): string | undefined {
    let best = this.fields.length;
    let bestValue: string | undefined;
    let pos = skipWs(line, 0) + 1;
    while (pos < line.length) {
      pos = skipWs(line, pos);
      if (line[pos] !== 0x22) return bestValue;
      const keyEnd = stringEnd(line, pos);
      if (keyEnd < 0) return bestValue;
      const found = this.fieldAt(line, pos + 1, keyEnd - 1);
      const idx = found < 0 ? undefined : found;
      pos = skipWs(line, keyEnd);
      if (line[pos] !== 0x3a) return bestValue;
      pos = skipWs(line, pos + 1);
      const valueEnd = jsonValueEnd(line, pos);
      if (valueEnd < 0) return bestValue;
      if (idx !== undefined && idx < best) {
        best = idx;
        const quoted = line[pos] === 0x22;
        bestValue = line.toString('utf8', quoted ? pos + 1 : pos, quoted ? valueEnd - 1 : valueEnd);
        if (idx === 0) return bestValue;
      }
      pos = skipWs(line, valueEnd);
      if (line[pos] !== 0x2c) return bestValue;
      pos++;
    }
    return bestValue;
  }

  /**
   * Loki's `getValueUsingLogfmtParser`: decodes pairs until the end of the line or the first
   * syntax error, and keeps the value of the key (compared with Go's `strings.EqualFold`)
   * that comes first in log_level_fields; the first field ends the scan at once. A bare key
   * counts too, with no value, so `level lvl=warn` finds no level in the pairs.
   */
  private logfmtField(line: Buffer): string | undefined {
    const pairs = new LogfmtPairs(line);
    let best = this.fields.length;
    let value: Buffer | string | null = null;
    while (!pairs.eol() && pairs.next()) {
      const idx = this.foldedFieldIndex(pairs.key(), best);
      if (idx < 0) continue;
      best = idx;
      value = pairs.value;
      if (idx === 0) break;
    }
    if (value === null) return undefined;
    return typeof value === 'string' ? value : value.toString('utf8');
  }

  /** Index of the first field before `limit` that equals `key` up to case, or -1. */
  private foldedFieldIndex(key: string, limit: number): number {
    for (let i = 0; i < limit; i++) if (equalFold(key, this.fields[i])) return i;
    return -1;
  }
}

function escapeRegex(latin1: string): string {
  return latin1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern over the line's latin1 text matching every key Go's EqualFold takes for this
 * ASCII field: each letter in either case, `k` also as U+212A (KELVIN SIGN) and `s` as U+017F
 * (LONG S) in UTF-8, the only non-ASCII letters that fold to ASCII ones. Null for a field
 * with non-ASCII characters.
 */
function foldedPattern(field: string): string | null {
  let out = '';
  for (const ch of field) {
    const c = ch.charCodeAt(0);
    if (c >= 0x80) return null;
    const lower = ch.toLowerCase();
    if (lower === 'k') out += '(?:[kK]|\xe2\x84\xaa)';
    else if (lower === 's') out += '(?:[sS]|\xc5\xbf)';
    else if (lower !== ch.toUpperCase()) out += `[${lower}${ch.toUpperCase()}]`;
    else out += escapeRegex(ch);
  }
  return out;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}

function skipWs(b: Buffer, pos: number): number {
  while (pos < b.length && isWs(b[pos])) pos++;
  return pos;
}

/** Whether the line begins with `key=` (letters, digits, `_`, `.`, `-`), as logfmt lines do. */
function startsWithKey(line: Buffer): boolean {
  let i = 0;
  while (i < line.length && isKeyByte(line[i])) i++;
  return i > 0 && line[i] === 0x3d;
}

function isKeyByte(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

function looksLikeJson(line: Buffer): boolean {
  const start = skipWs(line, 0);
  let end = line.length - 1;
  while (end > start && isWs(line[end])) end--;
  return start < end && line[start] === 0x7b && line[end] === 0x7d;
}

/** Offset just past the closing quote of the string starting at `pos`, or -1. */
function stringEnd(b: Buffer, pos: number): number {
  for (let i = pos + 1; i < b.length; i++) {
    const c = b[i];
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
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
