/**
 * The results cache of the frontend's downstream answers (metric range queries): one entry per
 * downstream node and split interval, holding extents (time ranges already computed), as
 * Loki's results cache. Reads are partial hits: only the gaps are computed, then merged in.
 */
import { labelsToString } from '@logsvc/api';
import type { DownstreamAnswer, MatrixSeries } from '@logsvc/logql';
import {
  type CachedResponseCodec,
  type Extent,
  type MsRange,
  mergeExtents,
  partition,
  ResultsCacheStore,
  trimRecentExtents,
  maxCacheTimeMs,
  bypassesCache,
} from '../cache';
import { rangeQueryCacheKey } from '../cache/key';
import type { CacheStats } from '@logsvc/api';

type Matrix = Extract<DownstreamAnswer, { type: 'matrix' }>;

/** Each series' points of all pieces, by time, the first piece's point kept at a repeated time. */
export function mergeByTime(pieces: readonly Matrix[]): Matrix {
  const out = new Map<string, { labels: MatrixSeries['labels']; points: Map<number, number> }>();
  for (const piece of pieces) {
    for (const s of piece.series) {
      const key = labelsToString(s.labels);
      let series = out.get(key);
      if (series === undefined) out.set(key, (series = { labels: s.labels, points: new Map() }));
      for (const [t, v] of s.points) if (!series.points.has(t)) series.points.set(t, v);
    }
  }
  return {
    type: 'matrix',
    series: [...out.values()].map((s) => ({
      labels: s.labels,
      points: [...s.points].sort((a, b) => a[0] - b[0]),
    })),
  };
}

/** The points of `answer` in `[startMs, endMs]`. */
export function extractRange(answer: Matrix, startMs: number, endMs: number): Matrix {
  return {
    type: 'matrix',
    series: answer.series
      .map((s) => ({
        labels: s.labels,
        points: s.points.filter(([t]) => t >= startMs && t <= endMs),
      }))
      .filter((s) => s.points.length > 0),
  };
}

/** JSON, with the non-finite values JSON cannot hold written as strings. */
export function matrixCodec(): CachedResponseCodec<Matrix> {
  const encodeValue = (v: number): number | string => (Number.isFinite(v) ? v : String(v));
  const decodeValue = (v: number | string): number => (typeof v === 'number' ? v : Number(v));
  return {
    encode: (value) =>
      Buffer.from(
        JSON.stringify({
          key: value.key,
          extents: value.extents.map((e) => ({
            startMs: e.startMs,
            endMs: e.endMs,
            series: e.response.series.map((s) => [
              s.labels,
              s.points.map(([t, v]) => [t, encodeValue(v)]),
            ]),
          })),
        }),
      ),
    decode: (bytes) => {
      const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as {
        key: string;
        extents: {
          startMs: number;
          endMs: number;
          series: [MatrixSeries['labels'], [number, number | string][]][];
        }[];
      };
      return {
        key: raw.key,
        extents: raw.extents.map((e) => ({
          startMs: e.startMs,
          endMs: e.endMs,
          response: {
            type: 'matrix' as const,
            series: e.series.map(([labels, points]) => ({
              labels,
              points: points.map(([t, v]) => [t, decodeValue(v)] as [number, number]),
            })),
          },
        })),
      };
    },
  };
}

export interface CachedRangeRequest {
  readonly tenants: readonly string[];
  /** The downstream node's LogQL. */
  readonly query: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly stepMs: number;
  readonly splitIntervalNs: bigint;
  readonly nowMs: number;
  readonly maxCacheFreshnessMs: number;
  /**
   * The tenants' results cache generation (Loki's cache generation number): it changes when a
   * delete request is made or cancelled, so answers cached before no longer match.
   */
  readonly generation: string;
}

/** What the cache holds of a request: the ranges to compute, and how to finish the answer. */
export interface CacheLookup {
  /** The ranges the cache lacks, in time order. */
  readonly missing: readonly MsRange[];
  /**
   * The answer from `computed` (one matrix per `missing` range, in its order) and the cached
   * parts; stores the computed ranges for later requests.
   */
  complete(computed: readonly Matrix[]): Matrix;
}

/**
 * The results cache of downstream answers. A lookup comes first and the computing after, so
 * that a caller can compute the missing ranges of several requests together.
 */
export class AnswerCache {
  constructor(private readonly store: ResultsCacheStore<Matrix>) {}

  lookup(req: CachedRangeRequest, stats: CacheStats): CacheLookup {
    const whole: MsRange = { startMs: req.startMs, endMs: req.endMs };
    if (bypassesCache(whole, req.nowMs, req.maxCacheFreshnessMs))
      return { missing: [whole], complete: (computed) => computed[0]! };
    const key =
      req.generation +
      rangeQueryCacheKey({
        tenantIds: req.tenants,
        query: req.query,
        stepMs: req.stepMs,
        startMs: req.startMs,
        splitIntervalNs: req.splitIntervalNs,
      });
    const extents = this.store.get(key, stats) ?? [];
    const { requests, cached } = partition(whole, extents);
    return {
      missing: requests,
      complete: (answers) => {
        const computed: Extent<Matrix>[] = requests.map((r, i) => ({
          startMs: r.startMs,
          endMs: r.endMs,
          response: answers[i]!,
        }));
        for (const c of cached) stats.queryLengthServed += (c.endMs - c.startMs) * 1_000_000;
        const answer = mergeByTime([
          ...computed.map((e) => e.response),
          ...cached.map((c) => extractRange(c.extent.response, c.startMs, c.endMs)),
        ]);
        const kept = computed.length > 0 ? this.kept(extents, computed, req) : [];
        if (kept.length > 0) this.store.put(key, kept, stats);
        return answer;
      },
    };
  }

  /** The extents to store: old and new merged, without what is too recent to cache. */
  private kept(
    extents: readonly Extent<Matrix>[],
    computed: readonly Extent<Matrix>[],
    req: CachedRangeRequest,
  ): Extent<Matrix>[] {
    const merged = mergeExtents([...extents, ...computed], req.stepMs, (a, b) =>
      mergeByTime([a, b]),
    );
    const cutoff = maxCacheTimeMs(req.nowMs, req.maxCacheFreshnessMs, req.stepMs);
    return trimRecentExtents(merged, cutoff, extractRange).filter((e) => e.startMs <= e.endMs);
  }
}
