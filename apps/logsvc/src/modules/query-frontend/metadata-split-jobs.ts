import {
  type FrontendLimits,
  type HttpJob,
  type HttpJobResult,
  mergeLabelAnswers,
  mergeSeriesAnswers,
  splitMetadataQuery,
} from '@logsvc/frontend';
import type { RouteName } from '@logsvc/api';
import { HOUR_NS, parseBounds } from '../querier/params/query-params';

/** The routes `split_metadata_queries_by_interval` cuts, as in Loki. */
type MetadataRoute = 'labels' | 'label_values' | 'series';
const METADATA_ROUTES: ReadonlySet<RouteName> = new Set<MetadataRoute>([
  'labels',
  'label_values',
  'series',
]);

/** The querier's default ranges (metadata.controller.ts): 6 h for labels, 1 h for series. */
const DEFAULT_SINCE_NS: Record<MetadataRoute, bigint> = {
  labels: 6n * HOUR_NS,
  label_values: 6n * HOUR_NS,
  series: HOUR_NS,
};

/** A job's parameters: its query string and, for a form POST, its body. */
function jobParams(job: HttpJob): URLSearchParams {
  const params = new URLSearchParams(job.url.split('?')[1] ?? '');
  const type = job.headers['content-type'] ?? '';
  if (job.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(job.body.toString('utf8'))) params.append(k, v);
  }
  return params;
}

/**
 * A labels, label values or series job cut into one job per split of its range (the same
 * request with `start` and `end` in nanoseconds), or undefined when it stays whole: another
 * route, one split, or a range the querier will refuse (it answers the error itself).
 */
export function splitMetadataJob(
  route: RouteName,
  job: HttpJob,
  limits: FrontendLimits,
  nowNs: bigint,
): HttpJob[] | undefined {
  if (!METADATA_ROUTES.has(route)) return undefined;
  const intervalNs = limits.metadataSplitIntervalNs ?? 0n;
  if (intervalNs <= 0n) return undefined;
  const params = jobParams(job);
  let bounds: { startNs: bigint; endNs: bigint };
  try {
    const read = (name: string) => params.get(name) ?? undefined;
    bounds = parseBounds(read, nowNs, DEFAULT_SINCE_NS[route as MetadataRoute]);
  } catch {
    return undefined;
  }
  const splits = splitMetadataQuery({
    ...bounds,
    intervalNs,
    recentWindowNs: limits.recentMetadataWindowNs ?? 0n,
    recentIntervalNs: limits.recentMetadataSplitIntervalNs ?? 0n,
    nowNs,
  });
  if (splits.length < 2) return undefined;
  const path = job.url.split('?')[0] ?? '';
  return splits.map((split) => {
    const p = new URLSearchParams(params);
    p.delete('since');
    p.set('start', String(split.startNs));
    p.set('end', String(split.endNs));
    const headers = { ...job.headers };
    delete headers['content-length'];
    delete headers['content-type'];
    // Plain answers to merge; this process compresses the merged one if the client asks.
    delete headers['accept-encoding'];
    return { method: 'GET', url: `${path}?${p.toString()}`, headers, body: Buffer.alloc(0) };
  });
}

interface MetadataBody {
  status?: string;
  data?: unknown[];
  values?: unknown[];
}

/**
 * The splits' answers as one, in the shape the querier writes: the first failure as it came;
 * else label names or values merged and sorted (`{"values":[...]}` on the legacy paths, no
 * `data` when empty), or series once per label set.
 */
export function mergeMetadataAnswers(
  route: RouteName,
  answers: readonly HttpJobResult[],
): HttpJobResult {
  const failed = answers.find((a) => a.status !== 200);
  if (failed !== undefined) return failed;
  const bodies = answers.map((a) => JSON.parse(a.body.toString('utf8')) as MetadataBody);
  let merged: MetadataBody;
  if (route === 'series') {
    const series = bodies.map((b) => (b.data ?? []) as Record<string, string>[]);
    merged = { status: 'success', data: mergeSeriesAnswers(series) };
  } else {
    const legacy = bodies.some((b) => b.values !== undefined);
    const list = mergeLabelAnswers(bodies.map((b) => (b.values ?? b.data ?? []) as string[]));
    merged = legacy
      ? { values: list }
      : list.length > 0
        ? { status: 'success', data: list }
        : { status: 'success' };
  }
  const first = answers[0]!;
  const headers = { ...first.headers };
  delete headers['content-length'];
  return { status: 200, headers, body: Buffer.from(JSON.stringify(merged)) };
}
