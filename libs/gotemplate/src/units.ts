/** Loki's template functions `duration`/`duration_seconds` and `bytes`, on gocompat's parsers. */
import {
  durationSeconds,
  GoSyntaxError,
  humanizeParseBytes,
  timeParseDuration,
} from '@logsvc/gocompat';
import { FuncError } from './values';

function asFuncError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof GoSyntaxError) throw new FuncError(err.message);
    throw err;
  }
}

/** Go's time.ParseDuration, returned as Duration.Seconds(). */
export function parseDuration(text: string): number {
  return asFuncError(() => durationSeconds(timeParseDuration(text)));
}

/** go-humanize ParseBytes, as a float64 (Loki's `bytes`). */
export function parseBytes(text: string): number {
  return asFuncError(() => humanizeParseBytes(text));
}
