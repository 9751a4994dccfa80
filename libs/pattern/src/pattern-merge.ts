import type { PatternSeries } from './pattern-query';

/** Loki's querier drops patterns with fewer lines than this in the queried range. */
export const MIN_PATTERN_LINES = 30;
/** ... and answers at most this many patterns, the most frequent. */
export const MAX_PATTERNS = 300;

/** Series of identical patterns summed, sample by sample (same timestamp: counts added). */
export function mergePatternSeries(lists: Iterable<readonly PatternSeries[]>): PatternSeries[] {
  const byPattern = new Map<string, Map<number, number>>();
  for (const list of lists) {
    for (const { pattern, samples } of list) {
      let points = byPattern.get(pattern);
      if (points === undefined) byPattern.set(pattern, (points = new Map()));
      for (const s of samples)
        points.set(s.timestampMs, (points.get(s.timestampMs) ?? 0) + s.value);
    }
  }
  const out: PatternSeries[] = [];
  for (const [pattern, points] of byPattern) {
    const samples = [...points]
      .sort((a, b) => a[0] - b[0])
      .map(([timestampMs, value]) => ({ timestampMs, value }));
    out.push({ pattern, samples });
  }
  return out;
}

/**
 * Loki's prunePatterns: the patterns with at least MIN_PATTERN_LINES lines in all, most lines
 * first (ties by pattern text, where Loki's order is random), at most MAX_PATTERNS of them.
 */
export function prunePatterns(series: readonly PatternSeries[]): PatternSeries[] {
  const totals = series.map((s) => ({ s, total: s.samples.reduce((n, p) => n + p.value, 0) }));
  return totals
    .filter((t) => t.total >= MIN_PATTERN_LINES)
    .sort((a, b) => b.total - a.total || (a.s.pattern < b.s.pattern ? -1 : 1))
    .slice(0, MAX_PATTERNS)
    .map((t) => t.s);
}
