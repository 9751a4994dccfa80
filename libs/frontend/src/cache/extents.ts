/**
 * The extent logic of Loki's results cache (pkg/storage/chunk/cache/resultscache/cache.go):
 * which parts of a request cached extents answer, which must be fetched, and how the
 * extents are merged and trimmed before they are stored again. Times are Unix milliseconds,
 * as in Loki's `Extent`. The response type is the caller's.
 */

export interface MsRange {
  readonly startMs: number;
  readonly endMs: number;
}

export interface Extent<R> extends MsRange {
  readonly response: R;
}

/**
 * The part `[startMs, endMs]` of a cached extent's response that answers a request (what
 * Loki's `Extractor.Extract` keeps of it).
 */
export interface CachedPart<R> extends MsRange {
  readonly extent: Extent<R>;
}

/** Loki's `minCacheExtent`: 5 minutes. */
export const MIN_CACHE_EXTENT_MS = 300_000;

export interface PartitionOptions {
  /** Discard extents shorter than this when the request is longer (default 5 minutes). */
  readonly minCacheExtentMs?: number;
  /**
   * Only use extents wholly inside the request (Loki sets this for metadata responses, whose
   * part for a sub-range cannot be extracted).
   */
  readonly onlyUseEntireExtent?: boolean;
}

/**
 * Loki's `partition`: walks the cached extents (sorted by start) over the request and returns
 * the requests for the gaps and, for each usable extent, the part of it to extract. A request
 * with start = end (valid for metric queries) is fetched whole unless an extent covers it.
 */
export function partition<R>(
  req: MsRange,
  extents: readonly Extent<R>[],
  options: PartitionOptions = {},
): { requests: MsRange[]; cached: CachedPart<R>[] } {
  const minExtent = options.minCacheExtentMs ?? MIN_CACHE_EXTENT_MS;
  const requests: MsRange[] = [];
  const cached: CachedPart<R>[] = [];
  let start = req.startMs;
  const end = req.endMs;
  for (const extent of extents) {
    if (extent.endMs < start || extent.startMs > end) continue;
    if (options.onlyUseEntireExtent && (start > extent.startMs || end < extent.endMs)) continue;
    // A tiny extent for a non-tiny request: cheaper to refetch the range in one go.
    if (
      req.startMs !== req.endMs &&
      end - start > minExtent &&
      extent.endMs - extent.startMs < minExtent
    ) {
      continue;
    }
    if (start < extent.startMs) requests.push({ startMs: start, endMs: extent.startMs });
    cached.push({
      extent,
      startMs: Math.max(start, extent.startMs),
      endMs: Math.min(end, extent.endMs),
    });
    start = extent.endMs;
  }
  if (start < req.endMs) requests.push({ startMs: start, endMs: end });
  if (req.startMs === req.endMs && cached.length === 0)
    requests.push({ startMs: req.startMs, endMs: req.endMs });
  return { requests, cached };
}

/**
 * Loki's extent merge after a partial hit: extents sorted by start (longer first on a tie),
 * then each one that starts within one step of the accumulated extent's end extends it, its
 * response merged in with `mergeResponses`; an extent inside the accumulated one is dropped.
 */
export function mergeExtents<R>(
  extents: readonly Extent<R>[],
  stepMs: number,
  mergeResponses: (a: R, b: R) => R,
): Extent<R>[] {
  if (extents.length === 0) return [];
  const sorted = [...extents].sort((a, b) => a.startMs - b.startMs || b.endMs - a.endMs);
  const out: Extent<R>[] = [];
  let acc: Extent<R> = sorted[0]!;
  for (const e of sorted.slice(1)) {
    if (acc.endMs + stepMs < e.startMs) {
      out.push(acc);
      acc = e;
      continue;
    }
    if (acc.endMs >= e.endMs) continue;
    acc = {
      startMs: acc.startMs,
      endMs: e.endMs,
      response: mergeResponses(acc.response, e.response),
    };
  }
  out.push(acc);
  return out;
}

/**
 * Loki's cut-off for caching: nothing newer than `max_cache_freshness_per_query` ago, rounded
 * down to the step (`filterRecentExtents`).
 */
export function maxCacheTimeMs(nowMs: number, maxCacheFreshnessMs: number, stepMs: number): number {
  const step = Math.max(1, stepMs);
  return Math.trunc((nowMs - maxCacheFreshnessMs) / step) * step;
}

/**
 * Loki bypasses the results cache for a request that starts after the freshness cut-off
 * (`now - max_cache_freshness`, not step-rounded).
 */
export function bypassesCache(req: MsRange, nowMs: number, maxCacheFreshnessMs: number): boolean {
  return req.startMs > nowMs - maxCacheFreshnessMs;
}

/**
 * Loki's `filterRecentExtents`: extents ending after the cut-off are trimmed to it, their
 * responses cut with `extract(response, startMs, endMs)`.
 */
export function trimRecentExtents<R>(
  extents: readonly Extent<R>[],
  maxCacheTime: number,
  extract: (response: R, startMs: number, endMs: number) => R,
): Extent<R>[] {
  return extents.map((e) =>
    e.endMs > maxCacheTime
      ? {
          startMs: e.startMs,
          endMs: maxCacheTime,
          response: extract(e.response, e.startMs, maxCacheTime),
        }
      : e,
  );
}
