/**
 * The few Go standard-library conversions whose exact behaviour and error texts Loki's HTTP
 * API exposes: `strconv.Atoi`/`ParseInt`, `strconv.ParseFloat`, `time.Duration.String` and
 * `strconv.FormatFloat(f, 'f', -1, 64)`.
 */

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

const FLOAT = /^[+-]?(?:[0-9]+(?:_[0-9]+)*\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** `strconv.ParseFloat(text, 64)`; undefined where Go returns an error. */
export function goParseFloat(text: string): number | undefined {
  if (SPECIAL.test(text)) {
    const lower = text.toLowerCase();
    if (lower.endsWith('nan')) return NaN;
    return lower.startsWith('-') ? -Infinity : Infinity;
  }
  if (!FLOAT.test(text)) return undefined;
  const v = Number(text.replace(/_/g, ''));
  return Number.isNaN(v) ? undefined : v;
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
