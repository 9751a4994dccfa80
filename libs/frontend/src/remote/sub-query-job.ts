/**
 * A sub-query as the HTTP request a querier answers (`query` or `query_range` with Loki's
 * `shards` parameter), and the querier's JSON answer read back into typed results and stats,
 * for frontends whose queriers are other processes.
 */
import {
  type EntryLabelCategories,
  type Labels,
  type QueryResult,
  type ResultEntry,
  shardText,
  sortLabels,
} from '@logsvc/api';
import { ERROR_KINDS, type ErrorKind, HTTP_STATUS_OF_KIND, LogsvcError } from '@logsvc/errors';
import { newQueryStats, type QueryStats } from '@logsvc/logql';
import type { HttpJob, HttpJobResult, SubQuery, SubQueryResult } from '../downstream';

const NS_PER_MS = 1_000_000n;

/** Whole milliseconds as decimal seconds (`15`, `0.25`), exact. */
function seconds(ns: bigint): string {
  const ms = ns / NS_PER_MS;
  const whole = ms / 1000n;
  const frac = ms % 1000n;
  return frac === 0n ? `${whole}` : `${whole}.${frac.toString().padStart(3, '0')}`;
}

export function subQueryJob(sub: SubQuery): HttpJob {
  const params = new URLSearchParams({ query: sub.query });
  if (sub.kind === 'instant') {
    params.set('time', `${sub.endNs}`);
  } else {
    params.set('start', `${sub.startNs}`);
    params.set('end', `${sub.endNs}`);
    params.set('step', seconds(sub.stepNs));
    if (sub.intervalNs > 0n) params.set('interval', seconds(sub.intervalNs));
  }
  params.set('limit', `${sub.limit}`);
  params.set('direction', sub.direction);
  if (sub.shard !== undefined) params.set('shards', shardText(sub.shard));
  const path = sub.kind === 'instant' ? '/loki/api/v1/query' : '/loki/api/v1/query_range';
  const headers: Record<string, string> = { 'x-scope-orgid': sub.tenants.join('|') };
  if (sub.categorizeLabels) headers['x-loki-response-encoding-flags'] = 'categorize-labels';
  return { method: 'GET', url: `${path}?${params}`, headers, body: Buffer.alloc(0) };
}

const KIND_OF_STATUS = new Map<number, ErrorKind>(
  ERROR_KINDS.map((k) => [HTTP_STATUS_OF_KIND[k], k]),
);

/** The querier's answer; an error status becomes the LogsvcError of that status. */
export function readSubQueryAnswer(answer: HttpJobResult): SubQueryResult {
  const text = answer.body.toString('utf8');
  if (answer.status !== 200) {
    const kind = KIND_OF_STATUS.get(answer.status) ?? 'internal';
    throw new LogsvcError(kind, text.trim(), { status: answer.status });
  }
  const body = JSON.parse(text) as {
    data: { resultType: string; result: unknown; stats?: unknown };
  };
  return {
    result: readResult(body.data.resultType, body.data.result),
    stats: readStats(body.data.stats),
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

/** Loki's sample value text (`NaN`, `+Inf`, `-Inf`, or a float). */
function value(text: unknown): number {
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
          points: (s.values as unknown[][]).map(([t, v]) => [ms(t), value(v)] as const),
        })),
      };
    case 'vector':
      return {
        type,
        samples: (result as Json[]).map((s) => {
          const [t, v] = s.value as unknown[];
          return { labels: labels(s.metric), timestampMs: ms(t), value: value(v) };
        }),
      };
    case 'scalar': {
      const [t, v] = result as unknown[];
      return { type, timestampMs: ms(t), value: value(v) };
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
