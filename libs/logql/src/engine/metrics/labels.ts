/** Label-set helpers of the metric evaluator: keys, ordering, grouping. */
import type { LabelPair, Labels } from '@logsvc/api';
import { labelsKey } from '../../log/labels-builder';
import type { Metric } from './types';

export const ERROR_LABEL = '__error__';
const PRESERVE_ERROR_LABEL = '__preserve_error__';

export function metricOf(labels: Labels): Metric {
  return { labels, key: labelsKey(labels) };
}

export const EMPTY_METRIC: Metric = metricOf([]);

/** Prometheus `labels.Compare`: pairwise by name then value; a prefix sorts first. */
export function compareLabels(a: Labels, b: Labels): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x.name !== y.name) return x.name < y.name ? -1 : 1;
    if (x.value !== y.value) return x.value < y.value ? -1 : 1;
  }
  return a.length - b.length;
}

export function getLabelValue(labels: Labels, name: string): string {
  for (const p of labels) if (p.name === name) return p.value;
  return '';
}

/** The `__error__` value when it must fail the query (unless `__preserve_error__="true"`). */
export function blockingError(labels: Labels): string | undefined {
  let err: string | undefined;
  let preserve = false;
  for (const p of labels) {
    if (p.name === ERROR_LABEL) err = p.value;
    else if (p.name === PRESERVE_ERROR_LABEL) preserve = p.value === 'true';
  }
  return err !== undefined && !preserve ? err : undefined;
}

/** Keeps only `names` (`by`) or drops them (`without`). The input is sorted, so is the output. */
export function groupLabels(labels: Labels, names: ReadonlySet<string>, without: boolean): Labels {
  const out: LabelPair[] = [];
  for (const p of labels) if (names.has(p.name) !== without) out.push(p);
  return out;
}

/** Sets (or, for an empty value, deletes) one label, keeping the set sorted. */
export function setLabel(labels: Labels, name: string, value: string): Labels {
  const out: LabelPair[] = [];
  let placed = value === '';
  for (const p of labels) {
    if (p.name === name) continue;
    if (!placed && p.name > name) {
      out.push({ name, value });
      placed = true;
    }
    out.push(p);
  }
  if (!placed) out.push({ name, value });
  return out;
}

/**
 * Caches derived metrics by source key, so that per-step work (grouping, relabelling) runs
 * once per distinct series instead of once per sample.
 */
export class MetricCache {
  private readonly map = new Map<string, Metric>();

  constructor(private readonly derive: (labels: Labels) => Labels) {}

  get(metric: Metric): Metric {
    let out = this.map.get(metric.key);
    if (out === undefined) {
      out = metricOf(this.derive(metric.labels));
      this.map.set(metric.key, out);
    }
    return out;
  }
}

export { labelsKey as labelsKeyOf };
