import { type QueryResult, labelsToString } from '@logsvc/api';
import type { QueryStats } from '@logsvc/logql';
import { goJson, goJsonString } from './json';
import { statsJson } from './stats-json';

/** Go's `time.RFC3339Nano` of epoch nanoseconds in UTC: fraction without trailing zeros. */
export function formatRfc3339Nano(ns: bigint): string {
  const seconds = ns >= 0n ? ns / 1_000_000_000n : (ns - 999_999_999n) / 1_000_000_000n;
  const frac = ns - seconds * 1_000_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const digits = frac === 0n ? '' : '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${digits}Z`;
}

/**
 * The answer of Loki's legacy `/api/prom/query` (`marshal_legacy`): streams with a label string
 * and `{ts, line}` entries, then the stats.
 */
export function legacyQueryResponseJson(result: QueryResult, stats: QueryStats): string {
  if (result.type !== 'streams') throw new Error('legacy answers carry streams only');
  const streams = result.streams
    .map((s) => {
      const entries = s.entries
        .map((e) => `{"ts":"${formatRfc3339Nano(e[0])}","line":${goJsonString(e[1])}}`)
        .join(',');
      return `{"labels":${JSON.stringify(labelsToString(s.labels))},"entries":[${entries}]}`;
    })
    .join(',');
  return `{"streams":[${streams}],"stats":${goJson(statsJson(stats))}}\n`;
}
