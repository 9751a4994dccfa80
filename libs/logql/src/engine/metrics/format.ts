import { goFormatFloat } from '@logsvc/gocompat';

/**
 * Formats a sample value as Go's `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest decimal
 * that reads back to the same float, never in exponent form; `NaN`, `+Inf`, `-Inf`.
 */
export function formatSampleValue(v: number): string {
  return goFormatFloat(v);
}

/** Go's formatting of a millisecond timestamp as seconds (`1588889221.5`). */
export function formatTimestampSeconds(ms: number): string {
  return formatSampleValue(ms / 1000);
}
