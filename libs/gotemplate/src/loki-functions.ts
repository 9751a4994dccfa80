import { checkOutputSize, jsonNestingExceeded, TEMPLATE_MAX_NESTING } from './budget';
import { toFloat64, toInt64, isEmpty } from './cast';
import * as dec from './decimal';
import type { FuncDef } from './func-types';
import { parseDuration, parseBytes } from './units';
import { GoTime, formatTime } from './go-time';
import { parseTime } from './go-time-parse';
import { LOCAL, loadLocation, UTC } from './go-zone';
import * as gc from './go-case';
import * as gs from './go-strings';
import { compileRegex, countMatches, replaceAll } from './regex';
import { queryEscape, queryUnescape } from './url';
import { decodeUtf8AsGo } from './go-utf8';
import { FuncError, SizedInt, type Value } from './values';

const S = 'string' as const;
const I = 'int' as const;
const A = 'any' as const;
const T = 'time' as const;

const int64 = (v: bigint): SizedInt => new SizedInt('int64', BigInt.asIntN(64, v));
const str = (a: Value[], i: number): string => a[i] as string;
const num = (a: Value[], i: number): number => Number(a[i] as bigint);

/**
 * Go's byte-based string slicing with Go's panic text for bad bounds. A cut through a
 * multi-byte character leaves one U+FFFD per stray byte, as Loki's answer shows it.
 */
function sliceBytes(s: string, start: number | undefined, end: number | undefined): string {
  const b = Buffer.from(s, 'utf8');
  const lo = start ?? 0;
  const hi = end ?? b.length;
  if (hi < 0 || hi > b.length) {
    throw new FuncError(
      `runtime error: slice bounds out of range [:${hi}] with length ${b.length}`,
    );
  }
  if (lo < 0 || lo > hi) {
    throw new FuncError(`runtime error: slice bounds out of range [${lo}:${hi}]`);
  }
  return decodeUtf8AsGo(b.subarray(lo, hi));
}

function repeat(s: string, n: number): string {
  if (n < 0) throw new FuncError('strings: negative Repeat count');
  checkOutputSize(s.length * n);
  return s.repeat(n);
}

function b64dec(s: string): string {
  const clean = s.replace(/[\r\n]/g, '');
  const bad = clean.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  const pad = clean.indexOf('=');
  if (
    clean.length % 4 !== 0 ||
    (pad >= 0 && (pad < clean.length - 2 || !/^=+$/.test(clean.slice(pad))))
  ) {
    const at = pad >= 0 ? pad : clean.length - (clean.length % 4);
    return `illegal base64 data at input byte ${at}`;
  }
  return Buffer.from(clean, 'base64').toString('utf8');
}

function fromJson(s: string): Value {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    return null;
  }
  // A fixed cap, not V8's stack, decides how deep a value may nest: converting and printing it
  // recurse, and whether 5,000 levels fit the stack depends on what the thread ran before.
  const conv = (v: unknown, depth: number): Value => {
    if (v === null) return null;
    if (typeof v !== 'object') return v as string | number | boolean;
    if (depth >= TEMPLATE_MAX_NESTING) throw jsonNestingExceeded();
    if (Array.isArray(v)) return v.map((x) => conv(x, depth + 1));
    const m = new Map<string, Value>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(k, conv(x, depth + 1));
    return m;
  };
  return conv(parsed, 0);
}

function round(a: Value[]): number {
  const roundOn = a.length > 2 ? (a[2] as number) : 0.5;
  const val = toFloat64(a[0]);
  const pow = Math.pow(10, num(a, 1));
  const digit = pow * val;
  const frac = digit - Math.trunc(digit);
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

function decimalOp(
  first: Value,
  rest: Value[],
  op: (
    a: ReturnType<typeof dec.fromFloat>,
    b: ReturnType<typeof dec.fromFloat>,
  ) => ReturnType<typeof dec.fromFloat>,
): number {
  let acc = dec.fromFloat(toFloat64(first));
  for (const x of rest) {
    try {
      acc = op(acc, dec.fromFloat(toFloat64(x)));
    } catch (e) {
      throw new FuncError((e as Error).message);
    }
  }
  return dec.toFloat(acc);
}

function intDiv(a: bigint, b: bigint, rem: boolean): bigint {
  if (b === 0n) throw new FuncError('runtime error: integer divide by zero');
  return rem ? a % b : a / b;
}

function alignLeft(n: number, s: string): string {
  checkOutputSize(n);
  const chars = [...s];
  if (n < 0 || n === chars.length) return s;
  return n > chars.length ? s + ' '.repeat(n - chars.length) : chars.slice(0, n).join('');
}

function alignRight(n: number, s: string): string {
  checkOutputSize(n);
  const chars = [...s];
  if (n < 0 || n === chars.length) return s;
  return n > chars.length
    ? ' '.repeat(n - chars.length) + s
    : chars.slice(chars.length - n).join('');
}

function unixToTime(epoch: string): GoTime {
  const fail = (): never => {
    throw new FuncError(`unable to parse time '${epoch}'`);
  };
  if (!/^[+-]?\d+$/.test(epoch)) fail();
  const i = BigInt(epoch);
  if (i >= 1n << 63n || i < -(1n << 63n)) fail();
  switch (epoch.length) {
    case 5:
      return GoTime.fromUnixNanos(i * 86400n * 1_000_000_000n);
    case 10:
      return GoTime.fromUnixNanos(i * 1_000_000_000n);
    case 13:
      return GoTime.fromUnixNanos(BigInt.asIntN(64, i * 1_000_000n));
    case 16:
      return GoTime.fromUnixNanos(BigInt.asIntN(64, i * 1000n));
    case 19:
      return GoTime.fromUnixNanos(i);
  }
  return fail();
}

function formatDate(layout: string, date: Value): string {
  let t: GoTime;
  if (date instanceof GoTime) t = date;
  else if (typeof date === 'bigint' || (date instanceof SizedInt && date.type === 'int64')) {
    t = GoTime.fromUnixNanos(BigInt(typeof date === 'bigint' ? date : date.v) * 1_000_000_000n);
  } else t = nowTime();
  return formatTime(t.in(LOCAL), layout);
}

function nowTime(): GoTime {
  return GoTime.fromUnixNanos(BigInt(Date.now()) * 1_000_000n, LOCAL);
}

function def(
  params: FuncDef['params'],
  call: FuncDef['call'],
  variadic?: FuncDef['variadic'],
): FuncDef {
  return variadic ? { params, call, variadic } : { params, call };
}

/** Loki's template functions (pkg/logql/log/fmt.go functionMap plus its sprig subset). */
export const LOKI_FUNCTIONS: ReadonlyMap<string, FuncDef> = new Map<string, FuncDef>([
  ['__line__', { params: [], readsLine: true, call: (_a, ctx) => ctx.line }],
  ['__timestamp__', def([], (_a, ctx) => GoTime.fromUnixNanos(ctx.timestampNs, LOCAL))],
  // Go strings package (legacy names).
  ['ToLower', def([S], (a) => gc.toLower(str(a, 0)))],
  ['ToUpper', def([S], (a) => gc.toUpper(str(a, 0)))],
  ['Replace', def([S, S, S, I], (a) => gs.replace(str(a, 0), str(a, 1), str(a, 2), num(a, 3)))],
  ['Trim', def([S, S], (a) => gs.trim(str(a, 0), str(a, 1)))],
  ['TrimLeft', def([S, S], (a) => gs.trimLeft(str(a, 0), str(a, 1)))],
  ['TrimRight', def([S, S], (a) => gs.trimRight(str(a, 0), str(a, 1)))],
  ['TrimPrefix', def([S, S], (a) => gs.trimPrefix(str(a, 0), str(a, 1)))],
  ['TrimSuffix', def([S, S], (a) => gs.trimSuffix(str(a, 0), str(a, 1)))],
  ['TrimSpace', def([S], (a) => gs.trimSpace(str(a, 0)))],
  // Loki's own.
  [
    'regexReplaceAll',
    def([S, S, S], (a) => replaceAll(compileRegex(str(a, 0)), str(a, 1), str(a, 2), false)),
  ],
  [
    'regexReplaceAllLiteral',
    def([S, S, S], (a) => replaceAll(compileRegex(str(a, 0)), str(a, 1), str(a, 2), true)),
  ],
  ['count', def([S, S], (a) => BigInt(countMatches(compileRegex(str(a, 0)), str(a, 1))))],
  ['urldecode', def([S], (a) => queryUnescape(str(a, 0)))],
  ['urlencode', def([S], (a) => queryEscape(str(a, 0)))],
  ['bytes', def([S], (a) => parseBytes(str(a, 0)))],
  ['duration', def([S], (a) => parseDuration(str(a, 0)))],
  ['duration_seconds', def([S], (a) => parseDuration(str(a, 0)))],
  ['unixEpochMillis', def([T], (a) => (a[0] as GoTime).unixMillis().toString())],
  ['unixEpochNanos', def([T], (a) => BigInt.asIntN(64, (a[0] as GoTime).unixNanos()).toString())],
  [
    'toDateInZone',
    def(
      [S, S, S],
      (a) => parseTime(str(a, 0), str(a, 2), loadLocation(str(a, 1)) ?? UTC) ?? GoTime.ZERO,
    ),
  ],
  ['unixToTime', def([S], (a) => unixToTime(str(a, 0)))],
  ['alignLeft', def([I, S], (a) => alignLeft(num(a, 0), str(a, 1)))],
  ['alignRight', def([I, S], (a) => alignRight(num(a, 0), str(a, 1)))],
  // sprig strings.
  ['b64enc', def([S], (a) => Buffer.from(str(a, 0), 'utf8').toString('base64'))],
  ['b64dec', def([S], (a) => b64dec(str(a, 0)))],
  ['lower', def([S], (a) => gc.toLower(str(a, 0)))],
  ['upper', def([S], (a) => gc.toUpper(str(a, 0)))],
  ['title', def([S], (a) => gs.title(str(a, 0)))],
  [
    'trunc',
    def([I, S], (a) => {
      const c = num(a, 0);
      const len = Buffer.byteLength(str(a, 1));
      if (c < 0 && len + c > 0) return sliceBytes(str(a, 1), len + c, undefined);
      if (c >= 0 && len > c) return sliceBytes(str(a, 1), undefined, c);
      return str(a, 1);
    }),
  ],
  [
    'substr',
    def([I, I, S], (a) => {
      const [start, end, s] = [num(a, 0), num(a, 1), str(a, 2)];
      if (start < 0) return sliceBytes(s, undefined, end);
      if (end < 0 || end > Buffer.byteLength(s)) return sliceBytes(s, start, undefined);
      return sliceBytes(s, start, end);
    }),
  ],
  ['contains', def([S, S], (a) => str(a, 1).includes(str(a, 0)))],
  ['hasPrefix', def([S, S], (a) => str(a, 1).startsWith(str(a, 0)))],
  ['hasSuffix', def([S, S], (a) => str(a, 1).endsWith(str(a, 0)))],
  ['indent', def([I, S], (a) => indent(num(a, 0), str(a, 1)))],
  ['nindent', def([I, S], (a) => '\n' + indent(num(a, 0), str(a, 1)))],
  ['replace', def([S, S, S], (a) => gs.replace(str(a, 2), str(a, 0), str(a, 1), -1))],
  ['repeat', def([I, S], (a) => repeat(str(a, 1), num(a, 0)))],
  ['trim', def([S], (a) => gs.trimSpace(str(a, 0)))],
  ['trimAll', def([S, S], (a) => gs.trim(str(a, 1), str(a, 0)))],
  ['trimSuffix', def([S, S], (a) => gs.trimSuffix(str(a, 1), str(a, 0)))],
  ['trimPrefix', def([S, S], (a) => gs.trimPrefix(str(a, 1), str(a, 0)))],
  // sprig conversions and math.
  ['int', def([A], (a) => BigInt.asIntN(64, toInt64(a[0])))],
  ['float64', def([A], (a) => toFloat64(a[0]))],
  ['add', def([], (a) => int64(a.reduce<bigint>((s, x) => s + toInt64(x), 0n)), A)],
  ['sub', def([A, A], (a) => int64(toInt64(a[0]) - toInt64(a[1])))],
  [
    'mul',
    def(
      [A],
      (a) =>
        int64(
          a.slice(1).reduce<bigint>((s, x) => BigInt.asIntN(64, s * toInt64(x)), toInt64(a[0])),
        ),
      A,
    ),
  ],
  ['div', def([A, A], (a) => int64(intDiv(toInt64(a[0]), toInt64(a[1]), false)))],
  ['mod', def([A, A], (a) => int64(intDiv(toInt64(a[0]), toInt64(a[1]), true)))],
  ['addf', def([], (a) => decimalOp(0, a, dec.add), A)],
  ['subf', def([A], (a) => decimalOp(a[0], a.slice(1), dec.sub), A)],
  ['mulf', def([A], (a) => decimalOp(a[0], a.slice(1), dec.mul), A)],
  ['divf', def([A], (a) => decimalOp(a[0], a.slice(1), dec.div), A)],
  [
    'max',
    def(
      [A],
      (a) =>
        int64(
          a.slice(1).reduce<bigint>((m, x) => (toInt64(x) > m ? toInt64(x) : m), toInt64(a[0])),
        ),
      A,
    ),
  ],
  [
    'min',
    def(
      [A],
      (a) =>
        int64(
          a.slice(1).reduce<bigint>((m, x) => (toInt64(x) < m ? toInt64(x) : m), toInt64(a[0])),
        ),
      A,
    ),
  ],
  [
    'maxf',
    def(
      [A],
      (a) => a.slice(1).reduce<number>((m, x) => goMax(m, toFloat64(x)), toFloat64(a[0])),
      A,
    ),
  ],
  [
    'minf',
    def(
      [A],
      (a) => a.slice(1).reduce<number>((m, x) => goMin(m, toFloat64(x)), toFloat64(a[0])),
      A,
    ),
  ],
  ['ceil', def([A], (a) => Math.ceil(toFloat64(a[0])))],
  ['floor', def([A], (a) => Math.floor(toFloat64(a[0])))],
  ['round', def([A, I], round, 'float64')],
  ['fromJson', def([S], (a) => fromJson(str(a, 0)))],
  // sprig dates (server local time zone, as in Loki).
  ['date', def([S, A], (a) => formatDate(str(a, 0), a[1]))],
  ['toDate', def([S, S], (a) => parseTime(str(a, 0), str(a, 1), LOCAL) ?? GoTime.ZERO)],
  ['now', def([], () => nowTime())],
  ['unixEpoch', def([T], (a) => String((a[0] as GoTime).unixSec))],
  ['default', def([A], (a) => (a.length < 2 || isEmpty(a[1]) ? a[0] : a[1]), A)],
]);

function indent(spaces: number, s: string): string {
  const pad = repeat(' ', spaces);
  checkOutputSize(s.length + pad.length * (1 + countNewlines(s)));
  return pad + s.split('\n').join('\n' + pad);
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function goMax(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  return Math.max(a, b);
}

function goMin(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  return Math.min(a, b);
}
