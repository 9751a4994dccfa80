/**
 * jsonparser's `EachKey` (github.com/grafana/jsonparser, the fork Loki 3.4 vendors), which
 * Loki's `| json a="x.y"` uses to find several paths in one pass. It is a byte scanner, not a
 * validating parser, and its leniency is what users see on damaged lines:
 *
 * - it counts `{`/`}` nesting and compares each key with the paths at that depth, so paths
 *   found before a cut or before trailing garbage keep their values, and the scan simply ends
 *   (no error) where the damage makes it lose its way;
 * - only reading a requested value that is itself broken (an unclosed string, object or
 *   array, an unknown literal) reports an error, as does a key outside any object;
 * - it stops as soon as every path was found, so nothing after that is looked at;
 * - keys inside arrays are searched only for paths that index the array.
 *
 * Paths are jsonexpr paths as strings, array indexes written `[n]` (Loki's
 * `JSONPathToStrings`).
 */
import {
  JSON_ERRORS,
  JsonScanError,
  JsonType,
  blockEnd,
  nextToken,
  readValue,
  scanState,
  stringEnd,
  unescapeJson,
  newJsonValue,
  type JsonValue,
} from './json-scanner';

/** A located value: strings without their quotes. */
export interface FoundValue {
  readonly type: JsonType;
  readonly start: number;
  readonly end: number;
}

/** Told each path found (by its index) with its value, or an error text (index may be -1). */
export type EachKeyVisitor = (
  pathIndex: number,
  value: FoundValue | null,
  error: string | null,
) => void;

const QUOTE = 0x22;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** jsonparser's `Get` without keys: the value at the first token from `pos`, or its error. */
function getValue(b: Buffer, pos: number, end: number, scratch: JsonValue): FoundValue | string {
  try {
    readValue(b, pos, end, scratch);
  } catch (err) {
    if (err instanceof JsonScanError) return err.message;
    throw err;
  }
  return { type: scratch.type, start: scratch.start, end: scratch.end };
}

/** A key's text, unescaped when it has escapes; null on a bad escape. */
function keyText(b: Buffer, start: number, end: number, escaped: boolean): string | null {
  return escaped ? unescapeJson(b, start, end) : b.toString('utf8', start, end);
}

/** The index inside a `[n]` path part (Go's `strconv.Atoi`, 0 when it is not a number). */
function indexOf(part: string): number {
  const n = Number(part.slice(1, -1));
  return Number.isInteger(n) ? n : 0;
}

/** Whether `path` and the keys seen so far agree on their common depth. */
function sameTree(path: readonly string[], seen: readonly string[], depth: number): boolean {
  const n = Math.min(path.length, depth);
  for (let i = 0; i < n; i++) if (path[i] !== seen[i]) return false;
  return true;
}

/**
 * jsonparser's `ArrayEach` on the array opening at the first token from `pos`: calls `visit`
 * for each element until the end or the first malformed element, and returns where it
 * stopped (the closing `]` when the array is whole).
 */
function arrayEach(b: Buffer, pos: number, end: number, visit: (v: FoundValue) => void): number {
  const scratch = newJsonValue();
  let off = nextToken(b, pos, end) + 1;
  const first = nextToken(b, off, end);
  if (first < 0) return off;
  off = first;
  if (b[off] === RBRACKET) return off;
  for (;;) {
    const v = getValue(b, off, end, scratch);
    if (typeof v === 'string') return off;
    visit(v);
    off = scratch.next;
    const next = nextToken(b, off, end);
    if (next < 0) return off;
    off = next;
    if (b[off] === RBRACKET) return off;
    if (b[off] !== 0x2c) return off;
    off++;
  }
}

/**
 * jsonparser's `searchKeys`: where the value at `keys` starts inside `b[start, end)`, or -1.
 * With no keys, `start`.
 */
function searchKeys(b: Buffer, start: number, end: number, keys: readonly string[]): number {
  if (keys.length === 0) return start;
  let keyLevel = 0;
  let level = 0;
  let lastMatched = true;
  for (let i = start; i < end; i++) {
    switch (b[i]) {
      case QUOTE: {
        const keyStart = i + 1;
        const se = stringEnd(b, keyStart, end);
        if (se < 0) return -1;
        const escaped = scanState.escaped;
        const at = nextToken(b, se, end);
        if (at < 0) return -1;
        if (b[at] !== COLON) {
          i = at - 1;
          break;
        }
        i = at;
        if (level < 1) return -1;
        const key = keyText(b, keyStart, se - 1, escaped);
        if (key === null) return -1;
        if (level > keys.length) return -1;
        if (key === keys[level - 1]) {
          lastMatched = true;
          if (keyLevel === level - 1 && ++keyLevel === keys.length) return i + 1;
        } else {
          lastMatched = false;
        }
        break;
      }
      case LBRACE:
        if (lastMatched) {
          level++;
        } else {
          const be = blockEnd(b, i, end, LBRACE, RBRACE);
          if (be < 0) return -1;
          i = be - 1;
        }
        break;
      case RBRACE:
        level--;
        if (level === keyLevel) keyLevel--;
        break;
      case LBRACKET: {
        const part = keys[level];
        if (keyLevel === level && part !== undefined && part.startsWith('[')) {
          if (part.length < 3 || !part.endsWith(']')) return -1;
          const wanted = Number(part.slice(1, -1));
          if (!Number.isInteger(wanted)) return -1;
          let index = 0;
          let from = -1;
          let to = -1;
          arrayEach(b, i, end, (v) => {
            if (index++ !== wanted) return;
            // A string element is searched with its quotes.
            const quoted = v.type === JsonType.String ? 1 : 0;
            from = v.start - quoted;
            to = v.end + quoted;
          });
          if (from < 0) return -1;
          return searchKeys(b, from, to, keys.slice(level + 1));
        }
        const be = blockEnd(b, i, end, LBRACKET, RBRACKET);
        if (be < 0) return -1;
        i = be - 1;
        break;
      }
      case COLON:
        return -1;
    }
  }
  return -1;
}

/** Finds `paths` in `b` as jsonparser's `EachKey` does, telling `visit` about each. */
export function eachKey(
  b: Buffer,
  paths: readonly (readonly string[])[],
  visit: EachKeyVisitor,
): void {
  const end = b.length;
  const done = new Array<boolean>(paths.length).fill(false);
  const maxPath = Math.max(0, ...paths.map((p) => p.length));
  const seen = new Array<string>(maxPath).fill('');
  const scratch = newJsonValue();
  let matched = 0;
  let level = 0;
  const report = (pi: number, pos: number, valueEnd: number): void => {
    const v = getValue(b, pos, valueEnd, scratch);
    if (typeof v === 'string') visit(pi, null, v);
    else visit(pi, v, null);
  };

  for (let i = 0; i < end; i++) {
    switch (b[i]) {
      case QUOTE: {
        const keyStart = i + 1;
        const se = stringEnd(b, keyStart, end);
        if (se < 0) return;
        const escaped = scanState.escaped;
        const at = nextToken(b, se, end);
        if (at < 0) return;
        if (b[at] !== COLON) {
          // A string value: go on with the token after it.
          i = at - 1;
          break;
        }
        i = at;
        const rawKey = escaped ? unescapeJson(b, keyStart, se - 1) : null;
        if (escaped && rawKey === null) return;
        if (maxPath >= level) {
          if (level < 1) {
            visit(-1, null, JSON_ERRORS.malformedJson);
            return;
          }
          const key = rawKey ?? b.toString('utf8', keyStart, se - 1);
          seen[level - 1] = key;
          for (let pi = 0; pi < paths.length; pi++) {
            const p = paths[pi];
            if (
              p.length !== level ||
              done[pi] ||
              p[level - 1] !== key ||
              !sameTree(p, seen, level)
            ) {
              continue;
            }
            matched++;
            done[pi] = true;
            report(pi, i + 1, end);
            if (matched === paths.length) return;
          }
        }
        // The value is not skipped: the scan goes on into it. Nothing after the colon ends it.
        if (nextToken(b, i + 1, end) < 0) return;
        break;
      }
      case LBRACE:
        level++;
        break;
      case RBRACE:
      case RBRACKET:
        level--;
        break;
      case LBRACKET: {
        if (level < 0) {
          visit(-1, null, JSON_ERRORS.malformedJson);
          return;
        }
        const wanted = new Set<number>();
        const indexed: number[] = [];
        for (let pi = 0; pi < paths.length; pi++) {
          const p = paths[pi];
          const part = p[level];
          if (
            p.length < level + 1 ||
            done[pi] ||
            !part?.startsWith('[') ||
            !sameTree(p, seen, level)
          ) {
            continue;
          }
          if (part.length > 2) {
            wanted.add(indexOf(part));
            indexed.push(pi);
          }
        }
        if (wanted.size === 0) {
          // Keys inside an array no path indexes are not searched.
          const be = blockEnd(b, i, end, LBRACKET, RBRACKET);
          if (be < 0) return;
          i = be - 1;
          break;
        }
        level++;
        let index = 0;
        const stop = arrayEach(b, i, end, (v) => {
          if (wanted.has(index)) {
            for (const pi of indexed) {
              const p = paths[pi];
              if (indexOf(p[level - 1]) !== index) continue;
              const at = searchKeys(b, v.start, v.end, p.slice(level));
              matched++;
              done[pi] = true;
              if (at < 0) continue;
              // A string element is taken as found (its quotes are already stripped).
              if (v.type === JsonType.String)
                visit(pi, { type: v.type, start: at, end: v.end }, null);
              else report(pi, at, v.end);
            }
          }
          index++;
        });
        if (matched === paths.length) return;
        // The scan resumes at the closing `]`, which ends the level entered above.
        i = stop - 1;
        break;
      }
    }
  }
}
