/**
 * Go's conversions that LogQL applies to label values, with Go's error texts (they end up in
 * `__error_details__`): `strconv.ParseFloat`, `time.ParseDuration`, `humanize.ParseBytes`.
 */
import {
  durationSeconds,
  GoSyntaxError,
  humanizeParseBytes,
  strconvParseFloat,
  timeParseDuration,
} from '@logsvc/gocompat';

export class ConversionError extends Error {
  constructor(message: string) {
    // Can be thrown for every line (unwrap, numeric label filters) and is always caught: no
    // stack trace, which would cost more than the conversion.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ConversionError';
  }
}

/** `strconv.ParseFloat(s, 64)`. */
export function parseGoFloat(s: string): number {
  // Label filters convert a value per line: plain decimals skip the general parser.
  if (isShortDecimal(s)) return Number(s);
  try {
    return strconvParseFloat(s);
  } catch (err) {
    if (err instanceof GoSyntaxError) throw new ConversionError(err.message);
    throw err;
  }
}

/**
 * `-?digits[.digits]` (either side of the point may be empty, not both) of at most 15
 * characters: Go and `Number` read it alike (both round correctly), and it cannot overflow.
 */
function isShortDecimal(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 15) return false;
  let i = s.charCodeAt(0) === 0x2d ? 1 : 0;
  let digits = 0;
  let point = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e && !point) point = true;
    else return false;
  }
  return digits > 0;
}

/** Runs one of gocompat's parsers, turning its GoSyntaxError into a ConversionError. */
function converting<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof GoSyntaxError) throw new ConversionError(err.message);
    throw err;
  }
}

/** `time.ParseDuration`, returning nanoseconds. */
export function parseGoDurationNs(s: string): number {
  return converting(() => Number(timeParseDuration(s)));
}

/** `time.ParseDuration(s).Seconds()`. */
export function parseGoDurationSeconds(s: string): number {
  return converting(() => durationSeconds(timeParseDuration(s)));
}

/** `humanize.ParseBytes`: `20MB` = 20e6, `2.5KiB` = 2560, `1,000` = 1000. */
export function parseHumanBytes(s: string): number {
  return converting(() => humanizeParseBytes(s));
}
