import type { Direction } from '@logsvc/logql';

/** Go's `time.RFC3339Nano` of a millisecond time: UTC, fraction without trailing zeros. */
export function rfc3339NanoOfMs(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0*Z$/, 'Z');
}

/**
 * An instant query as a form body (what a ruler in `remote` mode posts to a query frontend's
 * `/loki/api/v1/query`): Go's `url.Values.Encode`, keys in order, the time in RFC 3339. What
 * parseInstantQuery reads back.
 */
export function instantQueryForm(query: string, timeMs: number, direction: Direction): string {
  return new URLSearchParams([
    ['direction', direction],
    ['query', query],
    ['time', rfc3339NanoOfMs(timeMs)],
  ]).toString();
}
