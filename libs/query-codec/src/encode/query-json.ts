import {
  type EntryLabelCategories,
  type Labels,
  type QueryResult,
  type ResultEntry,
  labelsToRecord,
} from '@logsvc/api';
import type { QueryStats } from '@logsvc/logql';
import { goFormatFloat } from '@logsvc/gocompat';
import { goJson, goJsonString } from './json';
import type { CacheStats } from '@logsvc/api';
import { statsJson } from './stats-json';

import { CATEGORIZE_LABELS } from './encoding-flags';

/** `[<seconds>,"<value>"]` from a millisecond timestamp, as Loki writes samples. */
function pair(ms: number, value: number): string {
  return `[${goFormatFloat(ms / 1000)},${JSON.stringify(goFormatFloat(value))}]`;
}

const record = (labels: Labels | undefined) => JSON.stringify(labelsToRecord(labels ?? []));

/** `{"structuredMetadata":{..},"parsed":{..}}`, each key only when it has labels (`{}`: none). */
export function categoriesJson(c: EntryLabelCategories | undefined): string {
  if (c === undefined) return '{}';
  const parts: string[] = [];
  if (c.structuredMetadata?.length)
    parts.push(`"structuredMetadata":${record(c.structuredMetadata)}`);
  if (c.parsed?.length) parts.push(`"parsed":${record(c.parsed)}`);
  return `{${parts.join(',')}}`;
}

function entryJson(e: ResultEntry): string {
  const head = `["${e[0]}",${goJsonString(e[1])}`;
  return e.length === 3 ? `${head},${categoriesJson(e[2])}]` : `${head}]`;
}

function resultJson(result: QueryResult): string {
  switch (result.type) {
    case 'streams':
      // Loki writes stream labels as they are and lines HTML-escaped (jsoniter).
      return `[${result.streams
        .map(
          (s) => `{"stream":${record(s.labels)},"values":[${s.entries.map(entryJson).join(',')}]}`,
        )
        .join(',')}]`;
    case 'matrix':
      return `[${result.series
        .map((s) => {
          const values = s.points.map(([ms, v]) => pair(ms, v)).join(',');
          return `{"metric":${goJson(labelsToRecord(s.labels))},"values":[${values}]}`;
        })
        .join(',')}]`;
    case 'vector':
      return `[${result.samples
        .map(
          (s) =>
            `{"metric":${goJson(labelsToRecord(s.labels))},"value":${pair(s.timestampMs, s.value)}}`,
        )
        .join(',')}]`;
    case 'scalar':
      return pair(result.timestampMs, result.value);
  }
}

/**
 * The query envelope: `{"status":"success","data":{"resultType":..,"result":..,"stats":..}}`,
 * with `encodingFlags` after `resultType` when label categories were asked for. Stream answers
 * end with a newline, as Loki's stream encoder writes them.
 */
export function queryResponseJson(
  result: QueryResult,
  stats: QueryStats,
  categorizeLabels = false,
  resultCache?: CacheStats,
): string {
  const flags =
    categorizeLabels && result.type === 'streams'
      ? `,"encodingFlags":["${CATEGORIZE_LABELS}"]`
      : '';
  const body =
    `{"status":"success","data":{"resultType":"${result.type}"${flags},` +
    `"result":${resultJson(result)},"stats":${goJson(statsJson(stats, resultCache))}}}`;
  return result.type === 'streams' ? body + '\n' : body;
}
