/**
 * `split_metadata_queries_by_interval` for the label names, label values and series APIs, as
 * Loki's frontend cuts them (pkg/querier/queryrange/splitters.go, `defaultSplitter` for
 * `LabelRequest` and `LokiSeriesRequest`): the range is cut at multiples of the interval with
 * the end inclusive (`SPLIT_GAP_NS` between splits), and, with both
 * `recent_metadata_query_window` and `split_recent_metadata_queries_by_interval` set, the part
 * of the range inside the window (now minus the window, on) by the recent interval instead.
 * `split_ingester_queries_by_interval` does not apply to metadata queries (neither in Loki).
 */
import { forInterval, SPLIT_GAP_NS, type TimeRange } from './split';

export interface MetadataSplitOptions {
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** `split_metadata_queries_by_interval` in ns; 0 = no splitting. */
  readonly intervalNs: bigint;
  /** `recent_metadata_query_window` in ns; 0 = no recent window. */
  readonly recentWindowNs: bigint;
  /** `split_recent_metadata_queries_by_interval` in ns; 0 = the recent window is not used. */
  readonly recentIntervalNs: bigint;
  readonly nowNs: bigint;
}

/** The splits of a metadata query, oldest first; one range when the query is not cut. */
export function splitMetadataQuery(o: MetadataSplitOptions): TimeRange[] {
  const splits = metadataSplits(o);
  // Loki runs a query that gives no split (an empty range) whole.
  return splits.length === 0 ? [{ startNs: o.startNs, endNs: o.endNs }] : splits;
}

function metadataSplits(o: MetadataSplitOptions): TimeRange[] {
  if (o.intervalNs <= 0n) return [{ startNs: o.startNs, endNs: o.endNs }];
  let recent: TimeRange[] = [];
  let endNs = o.endNs;
  const windowStartNs = o.nowNs - o.recentWindowNs;
  // Loki's `recentMetadataQueryBounds`: only when the query ends strictly inside the window.
  if (o.recentWindowNs > 0n && o.recentIntervalNs > 0n && windowStartNs < o.endNs) {
    const recentStart = windowStartNs < o.startNs ? o.startNs : windowStartNs;
    recent = forInterval(o.recentIntervalNs, recentStart, o.endNs, true);
    endNs = recentStart - SPLIT_GAP_NS;
    if (o.startNs >= endNs) return recent;
  }
  return [...forInterval(o.intervalNs, o.startNs, endNs, true), ...recent];
}

/** The union of the splits' label names or values, sorted (Loki's label response merge). */
export function mergeLabelAnswers(answers: readonly (readonly string[])[]): string[] {
  return [...new Set(answers.flat())].sort();
}

/** The splits' series, each label set once, in the order first seen (Loki's series merge). */
export function mergeSeriesAnswers<S extends Readonly<Record<string, string>>>(
  answers: readonly (readonly S[])[],
): S[] {
  const seen = new Map<string, S>();
  for (const answer of answers) {
    for (const series of answer) {
      const key = JSON.stringify(Object.entries(series).sort(([a], [b]) => (a < b ? -1 : 1)));
      if (!seen.has(key)) seen.set(key, series);
    }
  }
  return [...seen.values()];
}
