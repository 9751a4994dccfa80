import type { RulerMetrics } from '@logsvc/ruler';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Prometheus' ExponentialBuckets(start, factor, count). */
function exponential(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/** Remote rule evaluation's metrics with Loki's names, labels and buckets (`loki_ruler_remote_eval_*`). */
export function remoteEvaluationMetrics(registry: Registry): Pick<RulerMetrics, 'remoteEvaluated'> {
  const registers = [registry];
  const duration = new Histogram({
    name: 'loki_ruler_remote_eval_request_duration_seconds',
    help: 'Duration of the remote evaluation requests to the query frontend.',
    labelNames: ['user'],
    buckets: exponential(0.005, 3, 9),
    registers,
  });
  const bytes = new Histogram({
    name: 'loki_ruler_remote_eval_response_bytes',
    help: 'Size of the remote evaluation answers, in bytes.',
    labelNames: ['user'],
    buckets: exponential(32, 4, 10),
    registers,
  });
  const samples = new Histogram({
    name: 'loki_ruler_remote_eval_response_samples',
    help: 'Samples in the remote evaluation answers.',
    labelNames: ['user'],
    buckets: exponential(1, 4, 10),
    registers,
  });
  const success = new Counter({
    name: 'loki_ruler_remote_eval_success_total',
    help: 'Remote evaluations whose answer was accepted.',
    labelNames: ['user'],
    registers,
  });
  const failure = new Counter({
    name: 'loki_ruler_remote_eval_failure_total',
    help: 'Remote evaluations that failed, by reason (timeout, error, upstream_error, max_size).',
    labelNames: ['reason', 'user'],
    registers,
  });
  return {
    remoteEvaluated(user, outcome) {
      if (outcome.seconds !== undefined) duration.observe({ user }, outcome.seconds);
      if (outcome.bytes !== undefined) bytes.observe({ user }, outcome.bytes);
      if (outcome.samples !== undefined) samples.observe({ user }, outcome.samples);
      if (outcome.result === 'success') success.inc({ user });
      else if (outcome.result !== undefined) failure.inc({ reason: outcome.result, user });
    },
  };
}
