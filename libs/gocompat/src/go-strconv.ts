/**
 * The few Go standard-library conversions whose exact behaviour and error texts Loki's HTTP
 * API exposes: `strconv.Atoi`/`ParseInt`, `strconv.ParseFloat`, `time.Duration.String` and
 * `strconv.FormatFloat(f, 'f', -1, 64)`.
 */

import { strconvQuote } from './go-quote';

const INT = /^[+-]?[0-9]+$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** A Go conversion error, with Go's message (`strconv.Atoi: parsing "x": invalid syntax`). */
export class GoSyntaxError extends Error {}

/** `strconv.ParseInt(text, 10, 64)` (or `strconv.Atoi` with `fn = 'Atoi'`) as a bigint. */
export function goParseInt(text: string, fn: 'Atoi' | 'ParseInt' = 'ParseInt'): bigint {
  const q = JSON.stringify(text);
  if (!INT.test(text)) throw new GoSyntaxError(`strconv.${fn}: parsing ${q}: invalid syntax`);
  const v = BigInt(text);
  if (v > INT64_MAX || v < INT64_MIN) {
    throw new GoSyntaxError(`strconv.${fn}: parsing ${q}: value out of range`);
  }
  return v;
}

const DECIMAL = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

function floatError(text: string, why: 'invalid syntax' | 'value out of range'): GoSyntaxError {
  return new GoSyntaxError(`strconv.ParseFloat: parsing ${strconvQuote(text)}: ${why}`);
}

function finite(text: string, v: number): number {
  if (!Number.isFinite(v)) throw floatError(text, 'value out of range');
  return v;
}

/**
 * `strconv.ParseFloat(text, 64)`: decimal and hexadecimal (`0x1p-2`) forms, `_` between digits,
 * `inf`/`infinity`/`nan` in any case. Throws GoSyntaxError with Go's text on invalid syntax and
 * on overflow.
 */
export function strconvParseFloat(text: string): number {
  // Fast path: plain decimals, which is nearly every call.
  if (DECIMAL.test(text)) return finite(text, Number(text));
  if (SPECIAL.test(text)) {
    if (/nan$/i.test(text)) return NaN;
    return text[0] === '-' ? -Infinity : Infinity;
  }
  let t = text;
  if (t.includes('_')) {
    if (!underscoreOK(t)) throw floatError(text, 'invalid syntax');
    t = t.replace(/_/g, '');
    if (DECIMAL.test(t)) return finite(text, Number(t));
  }
  const hex = HEX_FLOAT.exec(t);
  if (hex !== null) {
    const [, sign, int, frac = '', exp] = hex;
    if (int !== '' || frac !== '') {
      const mantissa = parseInt((int || '0') + frac, 16);
      const v = mantissa * Math.pow(2, Number(exp) - 4 * frac.length);
      return finite(text, sign === '-' ? -v : v);
    }
  }
  throw floatError(text, 'invalid syntax');
}

/**
 * What `strconv.ParseFloat` may accept: a decimal (with `_`), a `0x` hex float, or inf/nan.
 * Anything else is refused without building an error (most label values, e.g. hex IDs).
 */
const FLOAT_LIKE =
  /^[+-]?(?:[0-9_.]+(?:e[+-]?[0-9_]*)?|0x[0-9a-f_.]*(?:p[+-]?[0-9_]*)?|inf|infinity|nan)$/i;

/** `strconv.ParseFloat(text, 64)`; undefined where Go returns an error. */
export function goParseFloat(text: string): number | undefined {
  if (!FLOAT_LIKE.test(text)) return undefined;
  try {
    return strconvParseFloat(text);
  } catch {
    return undefined;
  }
}

/**
 * Go's `underscoreOK`: underscores only between digits, or between a base prefix and a digit.
 */
function underscoreOK(text: string): boolean {
  let saw = '^';
  let i = 0;
  let s = text;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && /[bBoOxX]/.test(s[1])) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * `strconv.ParseInt(text, 0, 64)` (or `ParseUint(text, 0, 64)` when `unsigned`): base prefixes
 * `0x`, `0o`, `0b`, a leading `0` for octal, and `_` between digits. Undefined on error.
 */
export function strconvParseIntBase0(text: string, unsigned: boolean): bigint | undefined {
  let neg = false;
  let body = text;
  if (body[0] === '+' || body[0] === '-') {
    if (unsigned) return undefined;
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let base = 10;
  let digits = body;
  if (/^0[xX]/.test(body)) [base, digits] = [16, body.slice(2)];
  else if (/^0[oO]/.test(body)) [base, digits] = [8, body.slice(2)];
  else if (/^0[bB]/.test(body)) [base, digits] = [2, body.slice(2)];
  else if (/^0./.test(body)) [base, digits] = [8, body.slice(1)];
  if (digits.includes('_') && !underscoreOK(body)) return undefined;
  digits = digits.replace(/_/g, '');
  const valid = { 16: /^[0-9a-fA-F]+$/, 10: /^[0-9]+$/, 8: /^[0-7]+$/, 2: /^[01]+$/ }[base]!;
  if (!valid.test(digits)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  let v = BigInt(prefix + digits);
  if (neg) v = -v;
  if (unsigned ? v >= 1n << 64n : v < -(1n << 63n) || v >= 1n << 63n) return undefined;
  return v;
}

/** `strconv.ParseBool`: `1 t T true TRUE True` and `0 f F false FALSE False`; else undefined. */
export function strconvParseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  return undefined;
}

/** Go's `math.Round`: half away from zero. */
export function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** `time.Duration(ns).String()`: `1h2m3.5s`, `250ms`, `0s`. */
export function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    // Sub-second: the largest unit that keeps an integer part, with a fraction.
    const [unit, size] =
      u < 1000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1000n] : (['ms', 1_000_000n] as const);
    out = fraction(u, size as bigint) + unit;
  } else {
    const h = u / 3_600_000_000_000n;
    u -= h * 3_600_000_000_000n;
    const m = u / 60_000_000_000n;
    u -= m * 60_000_000_000n;
    const s = fraction(u, 1_000_000_000n) + 's';
    out = h > 0n ? `${h}h${m}m${s}` : m > 0n ? `${m}m${s}` : s;
  }
  return neg ? '-' + out : out;
}

function fraction(v: bigint, size: bigint): string {
  const whole = v / size;
  const rest = v % size;
  if (rest === 0n) return whole.toString();
  const digits = (size.toString().length - 1) as number;
  return `${whole}.${rest.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}

/**
 * `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest decimal that reads back as `v`, never in
 * exponent form; `NaN`, `+Inf`, `-Inf` for the special values.
 */
export function goFormatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Object.is(v, -0)) return '-0';
  const s = String(v);
  if (!/e/i.test(s)) return s;
  return expandExponent(s);
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`. */
function expandExponent(s: string): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [mantissa, expText] = body.split(/e/i);
  const exp = Number(expText);
  const [intPart, fracPart = ''] = mantissa.split('.');
  const digits = intPart + fracPart;
  const point = intPart.length + exp;
  let out: string;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = digits.slice(0, point) + '.' + digits.slice(point);
  return (neg ? '-' : '') + out;
}
