import type { Config } from '@logsvc/config';
import type {
  DrainCounters,
  LogFormat,
  PatternQuerierCounters,
  PatternTeeCounters,
  SkipReason,
} from '@logsvc/pattern';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import { HttpMetrics } from '../../http/http-metrics';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG } from '../../tokens';

/** Loki's pattern ingester metrics are `loki_pattern_ingester_*`; ours the same with `logsvc_`. */
const PREFIXES = ['logsvc_pattern_ingester_', 'loki_pattern_ingester_'] as const;

/** A counter under both prefixes; `labels` binds label values once for the hot path. */
class PairedCounter<L extends string> {
  private readonly counters: Counter<L>[];

  constructor(registry: Registry, name: string, help: string, labelNames: L[]) {
    this.counters = PREFIXES.map(
      (prefix) => new Counter<L>({ name: prefix + name, help, labelNames, registers: [registry] }),
    );
  }

  inc(labels: Record<L, string>, value = 1): void {
    if (value <= 0) return;
    for (const c of this.counters) c.inc(labels, value);
  }

  /** An increment with the label values bound (no label hashing per call). */
  labels(labels: Record<L, string>): (value?: number) => void {
    const children = this.counters.map((c) => c.labels(labels));
    return (value = 1) => {
      for (const c of children) c.inc(value);
    };
  }
}

interface IngesterFamilies {
  detected: PairedCounter<'tenant' | 'format'>;
  evicted: PairedCounter<'tenant' | 'format' | 'pruned'>;
  dropped: PairedCounter<'tenant' | 'reason'>;
}

interface TeeFamilies {
  appends: PairedCounter<'ingester' | 'status'>;
  teedStreams: PairedCounter<'status'>;
  teedRequests: PairedCounter<'status'>;
}

interface QuerierFamilies {
  pruned: PairedCounter<never>;
  retained: PairedCounter<never>;
}

/**
 * The pattern ingester's metrics with Loki's names (pkg/pattern/metrics.go and
 * tee_service.go), registered where Loki registers them and only with
 * `pattern_ingester.enabled`: the ingester's where a pattern ingester runs, the tee's where a
 * distributor or a pattern ingester runs, the querier's where a querier runs.
 */
@Injectable()
export class PatternMetrics {
  private readonly ingester: IngesterFamilies | undefined;
  private readonly tee: TeeFamilies | undefined;
  private readonly querier: QuerierFamilies | undefined;
  private readonly registry: Registry;

  constructor(
    @Inject(HttpMetrics) metrics: HttpMetrics,
    @Inject(CONFIG) config: Config,
    @Inject(COMPONENTS) components: readonly Component[],
  ) {
    const r = (this.registry = metrics.registry);
    if (!config.pattern_ingester.enabled) return;
    const runs = (c: Component) => components.includes(c);
    if (runs('pattern-ingester')) {
      this.ingester = {
        detected: new PairedCounter(
          r,
          'patterns_detected_total',
          'The total number of patterns detected from incoming log lines.',
          ['tenant', 'format'],
        ),
        evicted: new PairedCounter(
          r,
          'patterns_evicted_total',
          'The total number of patterns evicted from the LRU cache.',
          ['tenant', 'format', 'pruned'],
        ),
        dropped: new PairedCounter(
          r,
          'patterns_dropped_total',
          'The total number of log lines skipped for pattern recognition.',
          ['tenant', 'reason'],
        ),
      };
    }
    if (runs('distributor') || runs('pattern-ingester')) {
      this.tee = {
        appends: new PairedCounter(
          r,
          'appends_total',
          'The total number of batch appends sent to pattern ingesters.',
          ['ingester', 'status'],
        ),
        teedStreams: new PairedCounter(
          r,
          'teed_streams_total',
          'The total number of streams teed to the pattern ingester.',
          ['status'],
        ),
        teedRequests: new PairedCounter(
          r,
          'teed_requests_total',
          'The total number of batch appends sent to fallback pattern ingesters, for not owned streams.',
          ['status'],
        ),
      };
    }
    if (runs('querier')) {
      this.querier = {
        pruned: new PairedCounter(
          r,
          'query_pruned_total',
          'The total number of patterns removed at query time by the pruning Drain instance',
          [],
        ),
        retained: new PairedCounter(
          r,
          'query_retained_total',
          'The total number of patterns retained at query time by the pruning Drain instance',
          [],
        ),
      };
    }
  }

  /** The counters of one stream's Drain (undefined where no pattern ingester runs). */
  drainCounters(tenant: string, format: LogFormat): DrainCounters | undefined {
    const f = this.ingester;
    if (!f) return undefined;
    const detected = f.detected.labels({ tenant, format });
    const evicted = f.evicted.labels({ tenant, format, pruned: 'false' });
    const pruned = f.evicted.labels({ tenant, format, pruned: 'true' });
    const skipped = new Map<SkipReason, (value?: number) => void>();
    return {
      detected: () => detected(),
      evicted: (wasPruned) => (wasPruned ? pruned() : evicted()),
      skipped: (reason) => {
        let inc = skipped.get(reason);
        if (inc === undefined) skipped.set(reason, (inc = f.dropped.labels({ tenant, reason })));
        inc();
      },
    };
  }

  /** The gauge of streams held by this process's pattern ingester (logsvc's own metric). */
  streamsGauge(read: () => number): void {
    if (!this.ingester) return;
    new Gauge({
      name: 'logsvc_pattern_ingester_streams',
      help: 'Streams whose lines this pattern ingester clusters (those it owns in the pattern ring).',
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  readonly teeCounters: PatternTeeCounters = {
    streams: (status, n) => this.tee?.teedStreams.inc({ status }, n),
    requests: (status) => this.tee?.teedRequests.inc({ status }),
    appends: (ingester, status) => this.tee?.appends.inc({ ingester, status }),
  };

  readonly querierCounters: PatternQuerierCounters = {
    queried: (pruned, retained) => {
      this.querier?.pruned.inc({}, pruned);
      this.querier?.retained.inc({}, retained);
    },
  };
}
