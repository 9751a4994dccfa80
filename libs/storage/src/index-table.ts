import { compileMatcher, type Matcher } from '@logsvc/api';
import type { SeriesChunkRefs } from './index-model';

/**
 * One loaded (immutable) index file with label postings: name -> value -> ascending series
 * ids. Matchers that reject the empty value pick their series from the postings; only the
 * remaining matchers (those that also accept a missing label) are checked per candidate.
 */
export class IndexTable {
  readonly minFromNs: bigint;
  readonly maxThroughNs: bigint;
  private readonly postings = new Map<string, Map<string, number[]>>();

  constructor(
    readonly key: string,
    readonly series: readonly SeriesChunkRefs[],
  ) {
    let min: bigint | undefined;
    let max: bigint | undefined;
    series.forEach((s, id) => {
      for (const p of s.labels) {
        let values = this.postings.get(p.name);
        if (!values) this.postings.set(p.name, (values = new Map()));
        const ids = values.get(p.value);
        if (ids) ids.push(id);
        else values.set(p.value, [id]);
      }
      for (const c of s.chunks) {
        if (min === undefined || c.fromNs < min) min = c.fromNs;
        if (max === undefined || c.throughNs > max) max = c.throughNs;
      }
    });
    this.minFromNs = min ?? 0n;
    this.maxThroughNs = max ?? -1n;
  }

  /** Whether every chunk of this file lies inside [fromNs, throughNs]. */
  within(fromNs: bigint, throughNs: bigint): boolean {
    return this.minFromNs >= fromNs && this.maxThroughNs <= throughNs;
  }

  overlaps(fromNs: bigint, throughNs: bigint): boolean {
    return this.minFromNs <= throughNs && this.maxThroughNs >= fromNs;
  }

  labelNames(): IterableIterator<string> {
    return this.postings.keys();
  }

  labelValues(name: string): Iterable<string> {
    return this.postings.get(name)?.keys() ?? [];
  }

  /** Ids of the series every matcher accepts (a missing label counts as ''), ascending. */
  select(matchers: readonly Matcher[]): number[] {
    let candidates: number[] | undefined;
    const perSeries: Matcher[] = [];
    for (const m of matchers) {
      const compiled = compileMatcher(m);
      if (compiled.matches('')) {
        perSeries.push(m);
        continue;
      }
      const ids = this.postingsFor(m);
      candidates = candidates === undefined ? ids : intersect(candidates, ids);
      if (candidates.length === 0) return candidates;
    }
    const base = candidates ?? this.series.map((_, i) => i);
    if (perSeries.length === 0) return base;
    return base.filter((id) =>
      perSeries.every((m) => compileMatcher(m).matches(valueOf(this.series[id], m.name))),
    );
  }

  /** Series having a value of `m.name` that `m` accepts. */
  private postingsFor(m: Matcher): number[] {
    const values = this.postings.get(m.name);
    if (!values) return [];
    if (m.type === '=') return values.get(m.value) ?? [];
    const compiled = compileMatcher(m);
    const lists: number[][] = [];
    for (const [value, ids] of values) if (compiled.matches(value)) lists.push(ids);
    return union(lists);
  }
}

function valueOf(series: SeriesChunkRefs, name: string): string {
  for (const p of series.labels) if (p.name === name) return p.value;
  return '';
}

function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}

function union(lists: readonly number[][]): number[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0];
  const all = lists.flat().sort((x, y) => x - y);
  const out: number[] = [];
  for (const id of all) if (out.length === 0 || out[out.length - 1] !== id) out.push(id);
  return out;
}
