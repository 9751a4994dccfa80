// The logs histogram's data: lines per step by detected_level over exactly the chosen range.
import type { MatrixItem } from '@logsvc/api/browser';
import { LEVEL_ORDER } from './colors';

export interface HistogramData {
  /** Bucket end times (s), one step apart, the last at the end of the range. */
  times: number[];
  /** Levels, most severe first, and their counts per bucket. */
  levels: { level: string; counts: number[]; total: number }[];
  total: number;
}

function levelRank(level: string): number {
  const i = LEVEL_ORDER.indexOf(level);
  return i === -1 ? LEVEL_ORDER.length + (level === 'unknown' ? 1 : 0) : i;
}

/** The end of each bucket of `stepS` that fits in [startS, endS], counted back from the end. */
export function bucketEnds(startS: number, endS: number, stepS: number): number[] {
  const n = Math.max(1, Math.floor((endS - startS) / stepS));
  return Array.from({ length: n }, (_, k) => endS - (n - 1 - k) * stepS);
}

/**
 * The buckets over [startS, endS] (every step, empty ones 0) and the counts of each level in
 * them, from `sum by (detected_level) (count_over_time(… [step]))` evaluated every step.
 */
export function histogramData(
  series: MatrixItem[],
  startS: number,
  endS: number,
  stepS: number,
): HistogramData {
  const times = bucketEnds(startS, endS, stepS);
  const first = times[0]!;
  const last = times[times.length - 1]!;
  const byLevel = new Map<string, number[]>();
  for (const s of series) {
    const level = s.metric.detected_level || 'unknown';
    const counts = byLevel.get(level) ?? times.map(() => 0);
    for (const [t, v] of s.values) {
      // The server evaluates a metric query at multiples of the step (Loki's split rounds the
      // end up), up to a step away from these bucket ends: a point whose window (t - step, t]
      // still overlaps the range counts in the nearest bucket, the first or last at the edges.
      if (t <= first - stepS || t - stepS >= last) continue;
      const i = Math.min(Math.max(Math.round((t - first) / stepS), 0), counts.length - 1);
      counts[i]! += Number(v);
    }
    byLevel.set(level, counts);
  }
  const levels = [...byLevel.entries()]
    .map(([level, counts]) => ({ level, counts, total: counts.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.level.localeCompare(b.level));
  return { times, levels, total: levels.reduce((n, l) => n + l.total, 0) };
}

/**
 * The stacked columns as uPlot draws them: each level's bar reaches the sum of it and every
 * level after it, and is drawn before them, so the bars stack with the most severe on top.
 */
export function stackedColumns(data: HistogramData): number[][] {
  const columns: number[][] = [];
  let below = data.times.map(() => 0);
  for (let i = data.levels.length - 1; i >= 0; i--) {
    below = below.map((v, j) => v + data.levels[i]!.counts[j]!);
    columns.unshift(below);
  }
  return columns;
}
