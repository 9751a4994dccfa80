/**
 * Durations the two ways Loki parses them: Go's `time.ParseDuration` (LogQL label filters,
 * unwrap conversions, templates, Go-style config values) and Prometheus'
 * `model.ParseDuration` (LogQL ranges, API `step`/`since`, config values like `1d`).
 */
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

const MODEL_DURATION =
  /^(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?(?:([0-9]+)ms)?$/;

const MODEL_UNITS_MS: ReadonlyArray<readonly [string, number]> = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/**
 * Prometheus `model.ParseDuration`: integer components `y w d h m s ms` in this order, or `0`.
 * Milliseconds; throws GoSyntaxError with Prometheus' text.
 */
export function modelParseDuration(text: string): number {
  if (text === '') throw new GoSyntaxError('empty duration string');
  if (text === '0') return 0;
  const m = MODEL_DURATION.exec(text);
  if (m === null) throw new GoSyntaxError(`not a valid duration string: ${JSON.stringify(text)}`);
  let ms = 0;
  for (let i = 0; i < MODEL_UNITS_MS.length; i++) {
    const part = m[i + 1];
    if (part !== undefined) ms += Number(part) * MODEL_UNITS_MS[i][1];
  }
  if (!Number.isSafeInteger(ms)) throw new GoSyntaxError('duration out of range');
  return ms;
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
