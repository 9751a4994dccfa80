/**
 * Duration and byte-size literals as LogQL reads and writes them. The Go parsers themselves
 * (`model.ParseDuration`, `time.ParseDuration`, `humanize.ParseBytes`) live in @logsvc/gocompat;
 * here is how the lexer combines them and how the printer writes literals back. All durations
 * are integer nanoseconds in a JS number.
 */
import { modelDurationString, modelParseDuration, timeParseDuration } from '@logsvc/gocompat';

const NS_PER_MS = 1_000_000;

/**
 * How the LogQL lexer reads a duration token: Prometheus syntax first, then Go syntax
 * (`pkg/logql/syntax/lex.go` `parseDuration`). Throws GoSyntaxError.
 */
export function parseLogqlDuration(text: string): number {
  try {
    return modelParseDuration(text) * NS_PER_MS;
  } catch {
    return Number(timeParseDuration(text));
  }
}

/**
 * Prints a duration so that the LogQL lexer reads it back exactly: whole milliseconds in
 * Prometheus form (`1h30m`, `1d`, `250ms`), otherwise in microseconds or nanoseconds.
 */
export function formatDuration(ns: number): string {
  if (ns < 0) return '-' + formatGoUnits(-ns);
  if (ns === 0) return '0s';
  if (ns % NS_PER_MS !== 0) return formatGoUnits(ns);
  return modelDurationString(ns / NS_PER_MS);
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

// No peta units: the Go scanner under Loki's lexer reads `1P` as a number with a `P` exponent
// and refuses it, so `1PiB` and `1PB` do not parse; they print as `1024TiB` and `1000TB`.
const BINARY_UNITS: ReadonlyArray<[string, number]> = [
  ['TiB', 1024 ** 4],
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];
const DECIMAL_UNITS: ReadonlyArray<[string, number]> = [
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
  // `0B` would read as a Go binary literal without digits (Loki's scanner refuses it too).
  return bytes === 0 ? '0KB' : `${bytes}B`;
}
