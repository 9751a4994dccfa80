/**
 * Durations the two ways Loki parses them: Go's `time.ParseDuration` (LogQL label filters,
 * unwrap conversions, templates, Go-style config values) and Prometheus'
 * `model.ParseDuration` (LogQL ranges, API `step`/`since`, config values like `1d`).
 */
import { strconvQuote as goQuote } from './go-quote';
import { GoSyntaxError } from './go-strconv';

const TIME_UNITS_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n, // U+00B5 micro sign
  μs: 1000n, // U+03BC greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const INT64_LIMIT = 1n << 63n;

/**
 * `time.ParseDuration`: `[-+]?(\d*(\.\d*)?unit)+` with units ns us µs ms s m h, or `0`.
 * Exact integer nanoseconds (fractions truncated as Go does); throws GoSyntaxError with Go's text.
 */
export function timeParseDuration(orig: string): bigint {
  const quoted = JSON.stringify(orig);
  const invalid = (): never => {
    throw new GoSyntaxError(`time: invalid duration ${quoted}`);
  };
  let s = orig;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[1] === '' && (m[2] ?? '') === '') invalid();
    s = s.slice(m[0].length);
    const unitText = /^[^\d.]*/.exec(s)![0];
    if (unitText === '') throw new GoSyntaxError(`time: missing unit in duration ${quoted}`);
    const unit = TIME_UNITS_NS[unitText];
    if (unit === undefined) {
      throw new GoSyntaxError(
        `time: unknown unit ${JSON.stringify(unitText)} in duration ${quoted}`,
      );
    }
    s = s.slice(unitText.length);
    const frac = m[2] ?? '';
    let v = BigInt(m[1] || '0') * unit;
    if (frac !== '') v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > INT64_LIMIT) invalid();
  }
  if (total === INT64_LIMIT && !negative) invalid();
  return negative ? -total : total;
}

/** `time.Duration.Seconds()`: whole seconds plus the nanosecond rest, as Go computes it. */
export function durationSeconds(ns: bigint): number {
  const sec = ns / 1_000_000_000n;
  const nsec = ns % 1_000_000_000n;
  return Number(sec) + Number(nsec) / 1e9;
}

const MODEL_UNITS_MS: ReadonlyArray<readonly [string, number]> = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/** Unit → [size in ms, rank]: units must come from the biggest to the smallest. */
const MODEL_UNIT_BY_NAME = new Map(MODEL_UNITS_MS.map(([u, ms], i) => [u, [ms, i] as const]));

/**
 * Prometheus `model.ParseDuration` as of prometheus/common v0.61 (what Loki 3.4 vendors):
 * integer components `y w d h m s ms` in this order, or `0`. Milliseconds; throws GoSyntaxError
 * with Prometheus' text (`unknown unit "x" in duration "5x"`, `not a valid duration string: …`).
 */
export function modelParseDuration(text: string): number {
  if (text === '0') return 0;
  if (text === '') throw new GoSyntaxError('empty duration string');
  const invalid = (): GoSyntaxError =>
    new GoSyntaxError(`not a valid duration string: ${goQuote(text)}`);
  let ms = 0;
  let lastRank = -1;
  let i = 0;
  while (i < text.length) {
    const digitsStart = i;
    while (i < text.length && isAsciiDigit(text.charCodeAt(i))) i++;
    if (i === digitsStart) throw invalid();
    const value = Number(text.slice(digitsStart, i));
    const unitStart = i;
    while (i < text.length && !isAsciiDigit(text.charCodeAt(i))) i++;
    if (i === unitStart) throw invalid();
    const unitText = text.slice(unitStart, i);
    const unit = MODEL_UNIT_BY_NAME.get(unitText);
    if (unit === undefined) {
      throw new GoSyntaxError(`unknown unit ${goQuote(unitText)} in duration ${goQuote(text)}`);
    }
    if (unit[1] <= lastRank) throw invalid();
    lastRank = unit[1];
    ms += value * unit[0];
    if (!Number.isSafeInteger(ms)) throw new GoSyntaxError('duration out of range');
  }
  return ms;
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Prometheus `model.Duration.String()` of whole milliseconds: `1h30m`, `30d1h`, `2w`, `0s`.
 * Years and weeks are printed only when they divide the rest exactly.
 */
export function modelDurationString(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, size] of MODEL_UNITS_MS) {
    if ((unit === 'y' || unit === 'w') && rest % size !== 0) continue;
    if (rest >= size) {
      const n = Math.floor(rest / size);
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
