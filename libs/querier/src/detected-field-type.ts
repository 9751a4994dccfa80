/**
 * The type Loki's detected-fields endpoint gives a field value (`determineType` in
 * `pkg/querier/queryrange/detected_fields.go`): the first Go parser that accepts the value wins,
 * in the order int, float, boolean, duration, bytes; anything else is a string.
 */
import {
  goParseFloat,
  goParseInt,
  humanizeParseBytes,
  strconvParseBool,
  timeParseDuration,
} from '@logsvc/gocompat';

export type DetectedFieldType = 'string' | 'int' | 'float' | 'boolean' | 'duration' | 'bytes';

function accepts(parse: (text: string) => unknown, text: string): boolean {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
}

/*
 * What a value must look like for each Go parser to accept it. Most field values are none of
 * these, and a parser's refusal is an exception (with a stack trace): these tests let the
 * parsers see only the values they may accept.
 */
const INT_LIKE = /^[+-]?[0-9]+$/;
/** `time.ParseDuration`: `0`, or numbers each followed by a unit. */
const DURATION_LIKE = /^[-+]?(?:0|(?:[0-9]*(?:\.[0-9]*)?(?:ns|us|µs|μs|ms|s|m|h))+)$/;
/** go-humanize `ParseBytes`: digits (with `.` and `,`), then at most a three-letter unit. */
const BYTES_LIKE = /^[\p{Nd}.,]+\s*[a-zA-Z]{0,3}\s*$/u;

/** `1` int, `1.5`/`1e3`/`NaN` float, `true`/`T` boolean, `15ms` duration, `1.5KB` bytes. */
export function detectFieldType(value: string): DetectedFieldType {
  if (INT_LIKE.test(value) && accepts(goParseInt, value)) return 'int';
  if (goParseFloat(value) !== undefined) return 'float';
  if (strconvParseBool(value) !== undefined) return 'boolean';
  if (DURATION_LIKE.test(value) && accepts(timeParseDuration, value)) return 'duration';
  if (BYTES_LIKE.test(value) && accepts(humanizeParseBytes, value)) return 'bytes';
  return 'string';
}
