/**
 * Label sets: the identity of a stream. A `Labels` value is always sorted by name with unique
 * names, so two equal sets have equal string forms and equal hashes.
 */
import { strconvQuote } from '@logsvc/gocompat';

export interface LabelPair {
  readonly name: string;
  readonly value: string;
}

export type Labels = readonly LabelPair[];

export const EMPTY_LABELS: Labels = Object.freeze([]);

export class LabelParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'LabelParseError';
  }
}

function byName(a: LabelPair, b: LabelPair): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Sorts pairs by name; the last value wins when a name repeats. */
export function sortLabels(pairs: Iterable<LabelPair>): Labels {
  const sorted = [...pairs].sort(byName);
  const out: LabelPair[] = [];
  for (const p of sorted) {
    if (out.length > 0 && out[out.length - 1].name === p.name) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

export function labelsFromRecord(record: Readonly<Record<string, string>>): Labels {
  return sortLabels(Object.entries(record).map(([name, value]) => ({ name, value })));
}

/** A null-prototype object, so names like `__proto__` or `toString` are ordinary keys. */
export function labelsToRecord(labels: Labels): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const { name, value } of labels) out[name] = value;
  return out;
}

export function getLabel(labels: Labels, name: string): string | undefined {
  for (const p of labels) if (p.name === name) return p.value;
  return undefined;
}

export function labelsEqual(a: Labels, b: Labels): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].name !== b[i].name || a[i].value !== b[i].value) return false;
  }
  return true;
}

/** Go's strconv.Quote (one implementation, in @logsvc/gocompat). */
export const goQuote = strconvQuote;

/** The canonical text of a label set, as Prometheus and Loki print it: `{a="1", b="2"}`. */
export function labelsToString(labels: Labels): string {
  let out = '{';
  for (let i = 0; i < labels.length; i++) {
    if (i > 0) out += ', ';
    out += labels[i].name + '=' + goQuote(labels[i].value);
  }
  return out + '}';
}

const NAME_START = /[a-zA-Z_]/;
const NAME_PART = /[a-zA-Z0-9_]/;

/** Whether `name` is a valid Prometheus label name: `[a-zA-Z_][a-zA-Z0-9_]*`. */
export function isValidLabelName(name: string): boolean {
  return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name);
}

/**
 * Reads a string literal as Prometheus's label parser does (Loki parses pushed label strings
 * with it): double- or single-quoted with Go escapes, or a backtick raw string, starting at
 * `text[pos]`. Returns the decoded value and the offset just after the closing quote.
 */
export function readGoString(text: string, pos: number): { value: string; end: number } {
  const quote = text[pos];
  if (quote === '`') {
    const close = text.indexOf('`', pos + 1);
    if (close < 0) throw new LabelParseError('literal not terminated', pos);
    return { value: text.slice(pos + 1, close), end: close + 1 };
  }
  if (quote !== '"' && quote !== "'")
    throw new LabelParseError(`expected string, found ${describe(text, pos)}`, pos);
  let out = '';
  let i = pos + 1;
  let start = i;
  for (;;) {
    if (i >= text.length) throw new LabelParseError('literal not terminated', pos);
    const ch = text[i];
    if (ch === quote) {
      out += text.slice(start, i);
      return { value: out, end: i + 1 };
    }
    if (ch === '\n') throw new LabelParseError('literal not terminated', pos);
    if (ch !== '\\') {
      i++;
      continue;
    }
    out += text.slice(start, i);
    const { value, next } = readEscape(text, i);
    out += value;
    i = next;
    start = i;
  }
}

const ESCAPE_CHARS: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

function readEscape(text: string, i: number): { value: string; next: number } {
  const e = text[i + 1];
  if (e === undefined) throw new LabelParseError('escape sequence not terminated', i);
  const simple = ESCAPE_CHARS[e];
  if (simple !== undefined) return { value: simple, next: i + 2 };
  const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
  if (hexLen > 0) {
    const hex = text.slice(i + 2, i + 2 + hexLen);
    if (hex.length !== hexLen || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new LabelParseError('invalid syntax', i);
    }
    const code = parseInt(hex, 16);
    if (e === 'x') {
      // \xHH is a single byte; decode runs of them as UTF-8 so multi-byte sequences survive.
      const bytes = [code];
      let j = i + 4;
      while (
        text[j] === '\\' &&
        text[j + 1] === 'x' &&
        /^[0-9a-fA-F]{2}$/.test(text.slice(j + 2, j + 4))
      ) {
        bytes.push(parseInt(text.slice(j + 2, j + 4), 16));
        j += 4;
      }
      return { value: Buffer.from(bytes).toString('utf8'), next: j };
    }
    if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000))
      throw new LabelParseError('invalid syntax', i);
    return { value: String.fromCodePoint(code), next: i + 2 + hexLen };
  }
  if (e >= '0' && e <= '7') {
    const oct = text.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(oct)) throw new LabelParseError('invalid syntax', i);
    const code = parseInt(oct, 8);
    if (code > 255) throw new LabelParseError('invalid syntax', i);
    return { value: Buffer.from([code]).toString('latin1'), next: i + 4 };
  }
  throw new LabelParseError('unknown escape sequence', i);
}

function describe(text: string, pos: number): string {
  return pos >= text.length ? 'end of input' : JSON.stringify(text[pos]);
}

function skipSpace(text: string, pos: number): number {
  while (
    pos < text.length &&
    (text[pos] === ' ' || text[pos] === '\t' || text[pos] === '\n' || text[pos] === '\r')
  ) {
    pos++;
  }
  return pos;
}

/**
 * Parses a push-style label set `{a="1", b="2"}` (equality matchers only). The result is
 * sorted; a repeated name is an error, as in Loki.
 */
export function parseLabels(text: string): Labels {
  let pos = skipSpace(text, 0);
  if (text[pos] !== '{')
    throw new LabelParseError(`expected "{", found ${describe(text, pos)}`, pos);
  pos = skipSpace(text, pos + 1);
  const pairs: LabelPair[] = [];
  const seen = new Set<string>();
  if (text[pos] === '}') return finish(text, pos, pairs);
  for (;;) {
    const nameStart = pos;
    if (!NAME_START.test(text[pos] ?? '')) {
      throw new LabelParseError(`expected label name, found ${describe(text, pos)}`, pos);
    }
    pos++;
    while (pos < text.length && NAME_PART.test(text[pos])) pos++;
    const name = text.slice(nameStart, pos);
    pos = skipSpace(text, pos);
    if (text[pos] !== '=' || text[pos + 1] === '~') {
      throw new LabelParseError(`expected "=" after label name ${name}`, pos);
    }
    pos = skipSpace(text, pos + 1);
    const { value, end } = readGoString(text, pos);
    if (seen.has(name)) throw new LabelParseError(`duplicate label name: ${name}`, nameStart);
    seen.add(name);
    pairs.push({ name, value });
    pos = skipSpace(text, end);
    if (text[pos] === ',') {
      pos = skipSpace(text, pos + 1);
      if (text[pos] === '}') return finish(text, pos, pairs);
      continue;
    }
    if (text[pos] === '}') return finish(text, pos, pairs);
    throw new LabelParseError(`expected "," or "}", found ${describe(text, pos)}`, pos);
  }
}

function finish(text: string, closePos: number, pairs: LabelPair[]): Labels {
  const rest = skipSpace(text, closePos + 1);
  if (rest !== text.length)
    throw new LabelParseError(`unexpected ${describe(text, rest)} after "}"`, rest);
  return sortLabels(pairs);
}

/**
 * A 53-bit FNV-1a-style hash of a label set's canonical text, stable across processes. Used to
 * key streams and to place them on the ring.
 */
export function labelsHash(labels: Labels): number {
  return stringHash53(labelsToString(labels));
}

/** cyrb53: a fast, well-mixed 53-bit string hash. */
export function stringHash53(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
