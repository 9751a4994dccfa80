/**
 * A sub-query as the HTTP request a querier answers (`query` or `query_range` with Loki's
 * `shards` parameter), and the querier's answer read back with the query codec.
 */
import { shardText } from '@logsvc/api';
import { decodeQueryAnswer } from '@logsvc/query-codec';
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

/** The querier's answer; an error status becomes the LogsvcError of that status. */
export function readSubQueryAnswer(answer: HttpJobResult): SubQueryResult {
  return decodeQueryAnswer(answer.status, answer.body);
}
