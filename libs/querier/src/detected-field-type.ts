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

/** `1` int, `1.5`/`1e3`/`NaN` float, `true`/`T` boolean, `15ms` duration, `1.5KB` bytes. */
export function detectFieldType(value: string): DetectedFieldType {
  if (accepts(goParseInt, value)) return 'int';
  if (goParseFloat(value) !== undefined) return 'float';
  if (strconvParseBool(value) !== undefined) return 'boolean';
  if (accepts(timeParseDuration, value)) return 'duration';
  if (accepts(humanizeParseBytes, value)) return 'bytes';
  return 'string';
}
