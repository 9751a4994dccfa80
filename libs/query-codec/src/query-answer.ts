/**
 * Query answers read back: the JSON of `query` / `query_range` (what queryResponseJson writes)
 * into typed results and stats, and an error status into the LogsvcError of that status. A
 * query frontend whose queriers are other processes reads their answers with these.
 */
import {
  type EntryLabelCategories,
  type Labels,
  type QueryResult,
  type ResultEntry,
  sortLabels,
} from '@logsvc/api';
import { ERROR_KINDS, type ErrorKind, HTTP_STATUS_OF_KIND, LogsvcError } from '@logsvc/errors';
import { newQueryStats, type QueryStats } from '@logsvc/logql';

/** A query's result and the stats of computing it. */
export interface QueryAnswer {
  readonly result: QueryResult;
  readonly stats: QueryStats;
}

const KIND_OF_STATUS = new Map<number, ErrorKind>(
  ERROR_KINDS.map((k) => [HTTP_STATUS_OF_KIND[k], k]),
);

/** The LogsvcError an error answer (status and plain-text body) stands for. */
export function errorOfAnswer(status: number, body: string): LogsvcError {
  const kind = KIND_OF_STATUS.get(status) ?? 'internal';
  return new LogsvcError(kind, body.trim(), { status });
}

/** A `query` / `query_range` answer; an error status is thrown as the LogsvcError of it. */
export function decodeQueryAnswer(status: number, body: Buffer): QueryAnswer {
  const text = body.toString('utf8');
  if (status !== 200) throw errorOfAnswer(status, text);
  const json = JSON.parse(text) as {
    data: { resultType: string; result: unknown; stats?: unknown };
  };
  return {
    result: readResult(json.data.resultType, json.data.result),
    stats: readStats(json.data.stats),
  };
}

type Json = Record<string, unknown>;

const labels = (record: unknown): Labels =>
  sortLabels(
    Object.entries((record ?? {}) as Record<string, string>).map(([name, value]) => ({
      name,
      value,
    })),
  );

/** Loki's (and Prometheus') sample value text (`NaN`, `+Inf`, `-Inf`, or a float). */
export function sampleValue(text: unknown): number {
  switch (text) {
    case '+Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
    default:
      return Number(text);
  }
}

const ms = (secondsValue: unknown): number => Math.round(Number(secondsValue) * 1000);

function readEntry(raw: unknown[]): ResultEntry {
  const ts = BigInt(raw[0] as string);
  const line = raw[1] as string;
  if (raw.length < 3) return [ts, line];
  const c = raw[2] as Json;
  const categories: EntryLabelCategories = {
    ...(c.structuredMetadata === undefined
      ? {}
      : { structuredMetadata: labels(c.structuredMetadata) }),
    ...(c.parsed === undefined ? {} : { parsed: labels(c.parsed) }),
  };
  return [ts, line, categories];
}

function readResult(type: string, result: unknown): QueryResult {
  switch (type) {
    case 'streams':
      return {
        type,
        streams: (result as Json[]).map((s) => ({
          labels: labels(s.stream),
          entries: (s.values as unknown[][]).map(readEntry),
        })),
      };
    case 'matrix':
      return {
        type,
        series: (result as Json[]).map((s) => ({
          labels: labels(s.metric),
          points: (s.values as unknown[][]).map(([t, v]) => [ms(t), sampleValue(v)] as const),
        })),
      };
    case 'vector':
      return {
        type,
        samples: (result as Json[]).map((s) => {
          const [t, v] = s.value as unknown[];
          return { labels: labels(s.metric), timestampMs: ms(t), value: sampleValue(v) };
        }),
      };
    case 'scalar': {
      const [t, v] = result as unknown[];
      return { type, timestampMs: ms(t), value: sampleValue(v) };
    }
    default:
      throw new LogsvcError('internal', `a querier answered an unknown result type: ${type}`);
  }
}

/** Copies the counters the querier sent over a fresh stats record (absent ones stay 0). */
function fill(into: object, from: unknown): void {
  if (from === null || typeof from !== 'object') return;
  const target = into as Record<string, unknown>;
  for (const [key, current] of Object.entries(target)) {
    const v = (from as Json)[key];
    if (typeof current === 'number' && typeof v === 'number') target[key] = v;
    else if (typeof current === 'boolean' && typeof v === 'boolean') target[key] = v;
    else if (current !== null && typeof current === 'object') fill(current, v);
  }
}

function readStats(raw: unknown): QueryStats {
  const stats = newQueryStats();
  if (raw !== null && typeof raw === 'object') {
    const r = raw as Json;
    fill(stats.querier, r.querier);
    fill(stats.ingester, r.ingester);
    fill(stats.summary, r.summary);
    fill(stats.cache.chunk, (r.cache as Json | undefined)?.chunk);
  }
  return stats;
}
