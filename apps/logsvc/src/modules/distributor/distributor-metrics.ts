import type { DistributorMetricsSink } from '@logsvc/distributor';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { HttpMetrics } from '../../http/http-metrics';

/**
 * A counter exported under our name and Loki's (`logsvc_x` and `loki_x`), so Loki dashboards
 * and alerts work unchanged. Both always carry the same value.
 */
class PairedCounter<L extends string> {
  private readonly counters: Counter<L>[];

  constructor(registry: Registry, names: readonly string[], help: string, labelNames: L[]) {
    this.counters = names.map(
      (name) => new Counter<L>({ name, help, labelNames, registers: [registry] }),
    );
  }

  inc(labels: Record<L, string>, value: number): void {
    if (value <= 0) return;
    for (const c of this.counters) c.inc(labels, value);
  }
}

/** The distributor's counters: received and discarded lines and bytes, per tenant. */
@Injectable()
export class DistributorMetrics implements DistributorMetricsSink {
  private readonly linesReceived: PairedCounter<'tenant'>;
  private readonly bytesReceived: PairedCounter<'tenant'>;
  private readonly discardedSamples: PairedCounter<'reason' | 'tenant'>;
  private readonly discardedBytes: PairedCounter<'reason' | 'tenant'>;
  private readonly mutatedSamples: PairedCounter<'reason' | 'tenant'>;

  constructor(@Inject(HttpMetrics) metrics: HttpMetrics) {
    const r = metrics.registry;
    this.linesReceived = new PairedCounter(
      r,
      ['logsvc_distributor_lines_received_total', 'loki_distributor_lines_received_total'],
      'Log lines received by the distributor, before validation and limits (as Loki counts them).',
      ['tenant'],
    );
    this.bytesReceived = new PairedCounter(
      r,
      ['logsvc_distributor_bytes_received_total', 'loki_distributor_bytes_received_total'],
      'Line and structured metadata bytes received by the distributor, before validation and limits.',
      ['tenant'],
    );
    this.discardedSamples = new PairedCounter(
      r,
      ['logsvc_discarded_samples_total', 'loki_discarded_samples_total'],
      'Log lines refused, by reason (a limit or a validation rule).',
      ['reason', 'tenant'],
    );
    this.discardedBytes = new PairedCounter(
      r,
      ['logsvc_discarded_bytes_total', 'loki_discarded_bytes_total'],
      'Line and structured metadata bytes refused, by reason.',
      ['reason', 'tenant'],
    );
    this.mutatedSamples = new PairedCounter(
      r,
      ['logsvc_mutated_samples_total', 'loki_mutated_samples_total'],
      'Log lines changed before storing, by reason (line_too_long: truncated).',
      ['reason', 'tenant'],
    );
  }

  received(tenant: string, lines: number, bytes: number): void {
    this.linesReceived.inc({ tenant }, lines);
    this.bytesReceived.inc({ tenant }, bytes);
  }

  discarded(tenant: string, reason: string, lines: number, bytes: number): void {
    this.discardedSamples.inc({ reason, tenant }, lines);
    this.discardedBytes.inc({ reason, tenant }, bytes);
  }

  truncated(tenant: string, lines: number): void {
    this.mutatedSamples.inc({ reason: 'line_too_long', tenant }, lines);
  }
}
