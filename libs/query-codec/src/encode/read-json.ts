// The answers of the read endpoints besides queries, written as Loki writes them.
import { type Labels, labelsToRecord } from '@logsvc/api';
import type { QueryStats } from '@logsvc/logql';
import { goJson, goJsonString } from './json';
import { statsJson } from './stats-json';

/** `labels` / `label/<name>/values`: Loki omits `data` when the list is empty; `{"values":...}` on legacy paths. */
export function labelListJson(list: readonly string[], legacy: boolean): string {
  if (legacy) return JSON.stringify({ values: list });
  return JSON.stringify(
    list.length > 0 ? { status: 'success', data: list } : { status: 'success' },
  );
}

/** `series`: the label sets found. */
export function seriesJson(found: readonly Labels[]): string {
  return JSON.stringify({ status: 'success', data: found.map(labelsToRecord) });
}

/** `index/stats`. */
export function indexStatsJson(s: {
  streams: number;
  chunks: number;
  bytes: number;
  entries: number;
}): string {
  return JSON.stringify({
    streams: s.streams,
    chunks: s.chunks,
    bytes: s.bytes,
    entries: s.entries,
  });
}

/** `index/volume(_range)`: items already encoded (vectorItem / matrixItem), and empty stats. */
export function volumeJson(matrix: boolean, items: readonly string[], stats: QueryStats): string {
  return `{"status":"success","data":{"resultType":"${matrix ? 'matrix' : 'vector'}","result":[${items.join(',')}],"stats":${goJson(statsJson(stats))}}}`;
}

/**
 * Logs Drilldown's answers: Loki writes them with jsoniter's fastest config (no HTML escaping,
 * empty lists and a zero `limit` left out) and a newline at the end.
 */
export function drilldownJson(body: Record<string, unknown>): string {
  return JSON.stringify(body) + '\n';
}

/** One pattern and its `[<unix seconds>, <count>]` samples. */
export interface PatternSeriesJson {
  readonly pattern: string;
  readonly samples: readonly { readonly timestampMs: number; readonly value: number }[];
}

/** Loki's WriteQueryPatternsResponseJSON: `[<unix seconds>, <count>]` samples, a final newline. */
export function patternsJson(series: readonly PatternSeriesJson[]): string {
  const data = series.map(
    (s) =>
      `{"pattern":${goJsonString(s.pattern)},"samples":[` +
      s.samples.map((p) => `[${Math.floor(p.timestampMs / 1000)},${p.value}]`).join(',') +
      ']}',
  );
  return `{"status":"success","data":[${data.join(',')}]}\n`;
}
