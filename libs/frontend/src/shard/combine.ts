/**
 * Joins downstream answers: the shards of one downstream query (sum, max, min or concat of
 * each series' values, step by step), an `avg` from its sum and count, and the time splits of
 * a range query (each series' points in time order).
 */
import { labelsToString } from '@logsvc/api';
import type { DownstreamAnswer, MatrixSeries, VectorSample } from '@logsvc/logql';
import type { Combine } from './plan';

type Point = [number, number];

function apply(combine: Combine, a: number, b: number): number {
  switch (combine) {
    case 'max':
      return Number.isNaN(a) || b > a ? b : a;
    case 'min':
      return Number.isNaN(a) || b < a ? b : a;
    default:
      // `concat` never meets a series twice (each lives in one shard); adding is then moot.
      return a + b;
  }
}

/** Each series' values combined over the shards' answers, at each step. */
export function combineShards(
  answers: readonly DownstreamAnswer[],
  combine: Combine,
): DownstreamAnswer {
  if (answers.length === 1) return answers[0]!;
  if (answers.every((a) => a.type === 'vector')) {
    const out = new Map<string, VectorSample>();
    for (const a of answers) {
      for (const s of a.samples) {
        const key = labelsToString(s.labels);
        const seen = out.get(key);
        out.set(
          key,
          seen === undefined ? s : { ...seen, value: apply(combine, seen.value, s.value) },
        );
      }
    }
    return { type: 'vector', samples: [...out.values()] };
  }
  const out = new Map<string, { labels: MatrixSeries['labels']; points: Map<number, number> }>();
  for (const a of answers) {
    if (a.type !== 'matrix') continue;
    for (const s of a.series) {
      const key = labelsToString(s.labels);
      let series = out.get(key);
      if (series === undefined) out.set(key, (series = { labels: s.labels, points: new Map() }));
      for (const [ts, v] of s.points) {
        const seen = series.points.get(ts);
        series.points.set(ts, seen === undefined ? v : apply(combine, seen, v));
      }
    }
  }
  return {
    type: 'matrix',
    series: [...out.values()].map((s) => ({
      labels: s.labels,
      points: [...s.points].sort((x, y) => x[0] - y[0]) as Point[],
    })),
  };
}

/** `sum / count` of each series at each step (a sharded `avg by`). */
export function divideAnswers(sum: DownstreamAnswer, count: DownstreamAnswer): DownstreamAnswer {
  if (sum.type === 'vector' && count.type === 'vector') {
    const counts = new Map(count.samples.map((s) => [labelsToString(s.labels), s.value]));
    return {
      type: 'vector',
      samples: sum.samples.map((s) => ({
        ...s,
        value: s.value / (counts.get(labelsToString(s.labels)) ?? NaN),
      })),
    };
  }
  if (sum.type !== 'matrix' || count.type !== 'matrix') return sum;
  const counts = new Map(
    count.series.map((s) => [labelsToString(s.labels), new Map(s.points.map(([t, v]) => [t, v]))]),
  );
  return {
    type: 'matrix',
    series: sum.series.map((s) => {
      const c = counts.get(labelsToString(s.labels));
      return {
        labels: s.labels,
        points: s.points.map(([t, v]) => [t, v / (c?.get(t) ?? NaN)] as Point),
      };
    }),
  };
}

/** The time splits' answers of one downstream node, oldest first, as one matrix. */
export function concatSplits(parts: readonly DownstreamAnswer[]): DownstreamAnswer {
  const out = new Map<string, { labels: MatrixSeries['labels']; points: Point[] }>();
  for (const part of parts) {
    if (part.type !== 'matrix') continue;
    for (const s of part.series) {
      const key = labelsToString(s.labels);
      const seen = out.get(key);
      if (seen === undefined) out.set(key, { labels: s.labels, points: [...s.points] });
      else seen.points.push(...s.points);
    }
  }
  return { type: 'matrix', series: [...out.values()] };
}
