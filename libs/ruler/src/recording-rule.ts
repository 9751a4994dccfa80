// Prometheus' RecordingRule: the query's samples renamed to the recorded series, with the
// rule's labels set.
import type { Rule } from './model';
import { labelsKey, sortedLabels, type Sample } from './sample';

export interface RecordedSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly timestampMs: number;
}

export function recordSamples(
  rule: Rule,
  samples: readonly Sample[],
  tsMs: number,
  limit: number,
): RecordedSeries[] {
  const seen = new Set<string>();
  const out: RecordedSeries[] = [];
  for (const s of samples) {
    const labels: Record<string, string> = { ...s.labels, __name__: rule.record ?? '' };
    for (const [k, v] of Object.entries(rule.labels)) {
      if (v === '') delete labels[k];
      else labels[k] = v;
    }
    const key = labelsKey(labels);
    if (seen.has(key)) {
      throw new Error('vector contains metrics with the same labelset after applying rule labels');
    }
    seen.add(key);
    out.push({ labels: sortedLabels(labels), value: s.value, timestampMs: tsMs });
  }
  if (limit > 0 && out.length > limit) {
    throw new Error(`exceeded limit ${limit} with ${out.length} series`);
  }
  return out;
}
