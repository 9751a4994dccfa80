import { parseRfc3339Nano as parse } from '@logsvc/gocompat';

export { formatRfc3339 } from '@logsvc/gocompat';

/** An RFC 3339 timestamp with up to nanosecond precision (a space for `T` allowed) to epoch ns. */
export function parseRfc3339Nano(text: string): bigint | undefined {
  return parse(text, { allowSpace: true });
}
