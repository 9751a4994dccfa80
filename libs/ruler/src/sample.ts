/** One sample of an instant query as rules see it: labels (no `__name__` for LogQL) and value. */
export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Evaluates an instant LogQL query for a tenant at `tsMs`; vector or scalar results only. */
export type QueryFn = (tenant: string, expr: string, tsMs: number) => Promise<Sample[]>;

/** Labels as a sorted, stable identity string. */
export function labelsKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((k) => [k, labels[k]]),
  );
}

/** A copy with keys in sorted order (Prometheus' labels.Labels order). */
export function sortedLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) out[k] = labels[k];
  return out;
}
