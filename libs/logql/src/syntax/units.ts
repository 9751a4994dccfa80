/**
 * Duration and byte-size literals as LogQL reads and writes them: Prometheus durations
 * (`model.ParseDuration`), Go durations (`time.ParseDuration`) and humanize byte sizes
 * (`humanize.ParseBytes`). All durations are integer nanoseconds in a JS number.
 */

const NS_PER_MS = 1_000_000;

/** Error from a unit parser; the message is the Go library's. */
export class UnitParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnitParseError';
  }
}

const PROM_DURATION =
  /^(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?(?:([0-9]+)ms)?$/;
const PROM_UNITS_MS = [365 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1];

/** Prometheus `model.ParseDuration`: integer components `y w d h m s ms` in this order. */
export function parsePromDuration(text: string): number {
  if (text === '') throw new UnitParseError('empty duration string');
  if (text === '0') return 0;
  const m = PROM_DURATION.exec(text);
  if (m === null) throw new UnitParseError(`not a valid duration string: ${JSON.stringify(text)}`);
  let ms = 0;
  for (let i = 0; i < PROM_UNITS_MS.length; i++) {
    const part = m[i + 1];
    if (part !== undefined) ms += Number(part) * PROM_UNITS_MS[i];
  }
  if (!Number.isSafeInteger(ms)) throw new UnitParseError(`duration out of range`);
  return ms * NS_PER_MS;
}

const GO_UNITS_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5 micro sign
  μs: 1e3, // U+03BC greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};
const MAX_GO_DURATION_NS = 2 ** 63; // int64 nanoseconds

/** Go `time.ParseDuration`: `[-+]?(\d*(\.\d*)?unit)+`, units ns us µs ms s m h; also `0`. */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  let i = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    i = 1;
  }
  if (text.slice(i) === '0') return 0;
  if (i === text.length) throw new UnitParseError(`time: invalid duration ${quoted}`);
  let total = 0;
  while (i < text.length) {
    const numStart = i;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    const intDigits = i - numStart;
    let fracDigits = 0;
    if (text[i] === '.') {
      i++;
      const fracStart = i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      fracDigits = i - fracStart;
    }
    if (intDigits === 0 && fracDigits === 0)
      throw new UnitParseError(`time: invalid duration ${quoted}`);
    const value = Number(text.slice(numStart, i));
    const unitStart = i;
    while (i < text.length && text[i] !== '.' && !isDigit(text.charCodeAt(i))) i++;
    if (unitStart === i) throw new UnitParseError(`time: missing unit in duration ${quoted}`);
    const unit = text.slice(unitStart, i);
    const scale = GO_UNITS_NS[unit];
    if (scale === undefined) {
      throw new UnitParseError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    }
    total += value * scale;
    if (total > MAX_GO_DURATION_NS) throw new UnitParseError(`time: invalid duration ${quoted}`);
  }
  const ns = Math.round(total);
  return negative ? -ns : ns;
}

/**
 * How the LogQL lexer reads a duration token: Prometheus syntax first, then Go syntax
 * (`pkg/logql/syntax/lex.go` `parseDuration`).
 */
export function parseLogqlDuration(text: string): number {
  try {
    return parsePromDuration(text);
  } catch {
    return parseGoDuration(text);
  }
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

/** `humanize.ParseBytes`: `42`, `42 MB`, `2.5KiB`, `1,000kB`; KB = 1000, KiB = 1024. */
export function parseBytes(text: string): number {
  let end = 0;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (!(isDigit(c) || c === 0x2e || c === 0x2c)) break;
    end++;
  }
  const num = text.slice(0, end).replaceAll(',', '');
  if (!/^(?:\d+\.?\d*|\.\d+)$/.test(num)) {
    throw new UnitParseError(`strconv.ParseFloat: parsing ${JSON.stringify(num)}: invalid syntax`);
  }
  const unit = text.slice(end).trim().toLowerCase();
  const scale = BYTE_UNITS[unit];
  if (scale === undefined) throw new UnitParseError(`unhandled size name: ${unit}`);
  const value = Number(num) * scale;
  if (value >= 2 ** 64) throw new UnitParseError(`too large: ${text}`);
  return Math.floor(value);
}

const FORMAT_UNITS_MS: ReadonlyArray<[string, number]> = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/**
 * Prints a duration so that the LogQL lexer reads it back exactly: whole milliseconds in
 * Prometheus form (`1h30m`, `1d`, `250ms`), otherwise in microseconds or nanoseconds.
 */
export function formatDuration(ns: number): string {
  if (ns < 0) return '-' + formatGoUnits(-ns);
  if (ns === 0) return '0s';
  if (ns % NS_PER_MS !== 0) return formatGoUnits(ns);
  let ms = ns / NS_PER_MS;
  let out = '';
  for (const [unit, size] of FORMAT_UNITS_MS) {
    // As Prometheus' model.Duration: years and weeks only when they divide the rest exactly
    // (`30d1h`, not `4w2d1h`).
    if ((unit === 'y' || unit === 'w') && ms % size !== 0) continue;
    if (ms >= size) {
      const n = Math.floor(ms / size);
      out += `${n}${unit}`;
      ms -= n * size;
    }
  }
  return out;
}

/**
 * Go-syntax form (negative durations must be Go syntax for the lexer): hours, minutes and
 * seconds, then a sub-second part in ms/us/ns.
 */
function formatGoUnits(ns: number): string {
  const units: ReadonlyArray<[string, number]> = [
    ['h', 3600e9],
    ['m', 60e9],
    ['s', 1e9],
    ['ms', 1e6],
    ['us', 1e3],
    ['ns', 1],
  ];
  let rest = ns;
  let out = '';
  for (const [unit, size] of units) {
    if (rest >= size) {
      const n = Math.floor(rest / size);
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out === '' ? '0s' : out;
}

const BINARY_UNITS: ReadonlyArray<[string, number]> = [
  ['PiB', 1024 ** 5],
  ['TiB', 1024 ** 4],
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];
const DECIMAL_UNITS: ReadonlyArray<[string, number]> = [
  ['PB', 1e15],
  ['TB', 1e12],
  ['GB', 1e9],
  ['MB', 1e6],
  ['KB', 1e3],
];

/** Prints a byte count exactly, in the largest unit that divides it (`20MB`, `2KiB`, `17B`). */
export function formatBytes(bytes: number): string {
  if (bytes > 0) {
    for (const table of [BINARY_UNITS, DECIMAL_UNITS]) {
      for (const [unit, size] of table) {
        if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
      }
    }
  }
  return `${bytes}B`;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
