import { type QueryResult, labelsToString } from '@logsvc/api';
import { formatRfc3339Nano } from '@logsvc/gocompat';
import type { QueryStats } from '@logsvc/logql';
import { goJson, goJsonString } from './json';
import { statsJson } from './stats-json';

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
