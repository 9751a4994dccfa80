/**
 * Go's conversions that LogQL applies to label values, with Go's error texts (they end up in
 * `__error_details__`): `strconv.ParseFloat`, `time.ParseDuration`, `humanize.ParseBytes`.
 */

export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const HEX_FLOAT = /^[+-]?0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

function goQuoted(s: string): string {
  return JSON.stringify(s);
}

/** `strconv.ParseFloat(s, 64)`. */
export function parseGoFloat(s: string): number {
  if (DECIMAL.test(s)) {
    const v = Number(s);
    if (!Number.isFinite(v)) {
      throw new ConversionError(`strconv.ParseFloat: parsing ${goQuoted(s)}: value out of range`);
    }
    return v;
  }
  if (SPECIAL.test(s)) {
    const neg = s[0] === '-';
    if (/nan/i.test(s)) return NaN;
    return neg ? -Infinity : Infinity;
  }
  if (HEX_FLOAT.test(s)) {
    const m = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?[0-9]+)$/.exec(s);
    if (m !== null) {
      const mantissa = parseInt((m[2] || '0') + (m[3] || ''), 16) / 16 ** m[3].length;
      const v = mantissa * 2 ** Number(m[4]) * (m[1] === '-' ? -1 : 1);
      if (Number.isFinite(v)) return v;
      throw new ConversionError(`strconv.ParseFloat: parsing ${goQuoted(s)}: value out of range`);
    }
  }
  throw new ConversionError(`strconv.ParseFloat: parsing ${goQuoted(s)}: invalid syntax`);
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5
  μs: 1e3, // U+03BC
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const MAX_DURATION_NS = 2 ** 63;

/** `time.ParseDuration`, returning nanoseconds. */
export function parseGoDurationNs(s: string): number {
  const orig = s;
  const invalid = (): never => {
    throw new ConversionError(`time: invalid duration ${goQuoted(orig)}`);
  };
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return 0;
  if (i >= s.length) invalid();
  let total = 0;
  while (i < s.length) {
    const start = i;
    while (i < s.length && s[i] >= '0' && s[i] <= '9') i++;
    const intPart = s.slice(start, i);
    let fracPart = '';
    if (s[i] === '.') {
      i++;
      const fs = i;
      while (i < s.length && s[i] >= '0' && s[i] <= '9') i++;
      fracPart = s.slice(fs, i);
    }
    if (intPart === '' && fracPart === '') invalid();
    const us = i;
    while (i < s.length && s[i] !== '.' && !(s[i] >= '0' && s[i] <= '9')) i++;
    const unit = s.slice(us, i);
    if (unit === '') throw new ConversionError(`time: missing unit in duration ${goQuoted(orig)}`);
    const scale = DURATION_UNITS[unit];
    if (scale === undefined) {
      throw new ConversionError(
        `time: unknown unit ${goQuoted(unit)} in duration ${goQuoted(orig)}`,
      );
    }
    total += Number(intPart || '0') * scale + (fracPart ? Number('0.' + fracPart) * scale : 0);
    if (total > MAX_DURATION_NS) invalid();
  }
  return neg ? -total : total;
}

export function parseGoDurationSeconds(s: string): number {
  return parseGoDurationNs(s) / 1e9;
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  ki: 1024,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1e15,
  pb: 1e15,
  pi: 1024 ** 5,
  pib: 1024 ** 5,
  e: 1e18,
  eb: 1e18,
  ei: 1024 ** 6,
  eib: 1024 ** 6,
};

/** `humanize.ParseBytes`: `20MB` = 20e6, `2.5KiB` = 2560, `1,000` = 1000. */
export function parseHumanBytes(s: string): number {
  let end = 0;
  while (end < s.length && /[\p{Nd}.,]/u.test(s[end])) end++;
  const num = s.slice(0, end).replace(/,/g, '');
  const f = parseGoFloat(num);
  const unit = s.slice(end).trim().toLowerCase();
  const scale = BYTE_UNITS[unit];
  if (scale === undefined) throw new ConversionError(`unhandled size name: ${unit}`);
  const v = f * scale;
  if (v >= 2 ** 64) throw new ConversionError(`too large: ${s}`);
  return Math.floor(v);
}
