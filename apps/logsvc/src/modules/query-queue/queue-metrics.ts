import type { QueueMetrics } from '@logsvc/frontend';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Prometheus' DefBuckets, which Loki's queue duration histograms use. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Loki's metrics of the query queue, under the name of the component that holds it:
 * `loki_query_scheduler_*` for a scheduler, `loki_query_frontend_*` for a frontend without one.
 * `connections` reads the open querier worker connections when scraped.
 */
export function queueMetrics(
  registry: Registry,
  holder: 'scheduler' | 'frontend',
  connections: () => number,
): QueueMetrics {
  const prefix = holder === 'scheduler' ? 'loki_query_scheduler' : 'loki_query_frontend';
  const registers = [registry];
  const length = new Gauge({
    name: `${prefix}_queue_length`,
    help: 'Number of queries in the queue.',
    labelNames: ['user'],
    registers,
  });
  const discarded = new Counter({
    name: `${prefix}_discarded_requests_total`,
    help: 'Total number of query requests discarded.',
    labelNames: ['user'],
    registers,
  });
  const enqueued = new Counter({
    name: `${prefix}_enqueue_count`,
    help: 'Total number of enqueued (sub-)queries.',
    labelNames: ['user', 'level'],
    registers,
  });
  const duration = new Histogram({
    name: `${prefix}_queue_duration_seconds`,
    help: 'Time spend by requests in queue before getting picked up by a querier.',
    buckets: DEFAULT_BUCKETS,
    registers,
  });
  new Gauge({
    name:
      holder === 'scheduler'
        ? 'loki_query_scheduler_connected_querier_clients'
        : 'loki_query_frontend_connected_clients',
    help: 'Number of querier worker clients currently connected.',
    registers,
    collect() {
      this.set(connections());
    },
  });
  return {
    enqueued(user, level) {
      length.inc({ user });
      enqueued.inc({ user, level: String(level) });
    },
    discarded: (user) => discarded.inc({ user }),
    dequeued(user, seconds) {
      length.dec({ user });
      duration.observe(seconds);
    },
  };
}
