/**
 * Go's conversions that LogQL applies to label values, with Go's error texts (they end up in
 * `__error_details__`): `strconv.ParseFloat`, `time.ParseDuration`, `humanize.ParseBytes`.
 */
import {
  durationSeconds,
  GoSyntaxError,
  humanizeParseBytes,
  timeParseDuration,
} from '@logsvc/gocompat';

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
