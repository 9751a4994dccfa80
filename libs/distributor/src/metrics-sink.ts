/**
 * Where the distributor counts what it received, refused and changed, per tenant. The server
 * implements it with its Prometheus counters (Loki's `loki_distributor_*`,
 * `loki_discarded_*` and `loki_mutated_samples_total`).
 */
export interface DistributorMetricsSink {
  /** Lines and line + structured metadata bytes received, before validation and limits. */
  received(tenant: string, lines: number, bytes: number): void;
  /** Lines and bytes refused for `reason` (a Loki discard reason). */
  discarded(tenant: string, reason: string, lines: number, bytes: number): void;
  /** Lines truncated to max_line_size. */
  truncated(tenant: string, lines: number): void;
}
