import type { RulerMetrics } from '@logsvc/ruler';
import { Counter, Gauge, Summary, type Registry } from 'prom-client';
import { remoteEvaluationMetrics } from './remote-eval-metrics';

/** The ruler's metrics under Loki's names (Loki's ruler prefixes Prometheus' with `loki_`). */
export function createRulerMetrics(registry: Registry): RulerMetrics {
  const r = [registry];
  const ug = ['user', 'rule_group'] as const;
  const evals = new Counter({
    name: 'loki_prometheus_rule_evaluations_total',
    help: 'The total number of rule evaluations.',
    labelNames: ug,
    registers: r,
  });
  const failures = new Counter({
    name: 'loki_prometheus_rule_evaluation_failures_total',
    help: 'The total number of rule evaluation failures.',
    labelNames: ug,
    registers: r,
  });
  const evalDuration = new Summary({
    name: 'loki_prometheus_rule_evaluation_duration_seconds',
    help: 'The duration for a rule to execute.',
    labelNames: ['user'],
    percentiles: [0.5, 0.9, 0.99],
    registers: r,
  });
  const groupDuration = new Summary({
    name: 'loki_prometheus_rule_group_duration_seconds',
    help: 'The duration of rule group evaluations.',
    labelNames: ['user'],
    percentiles: [0.01, 0.05, 0.5, 0.9, 0.99],
    registers: r,
  });
  const iterations = new Counter({
    name: 'loki_prometheus_rule_group_iterations_total',
    help: 'The total number of scheduled rule group evaluations, whether executed or missed.',
    labelNames: ug,
    registers: r,
  });
  const missed = new Counter({
    name: 'loki_prometheus_rule_group_iterations_missed_total',
    help: 'The total number of rule group evaluations missed due to slow rule group evaluation.',
    labelNames: ug,
    registers: r,
  });
  const lastEval = new Gauge({
    name: 'loki_prometheus_rule_group_last_evaluation_timestamp_seconds',
    help: 'The timestamp of the last rule group evaluation in seconds.',
    labelNames: ug,
    registers: r,
  });
  const sent = new Counter({
    name: 'loki_prometheus_notifications_sent_total',
    help: 'Total number of alerts sent.',
    labelNames: ['user', 'alertmanager'],
    registers: r,
  });
  const errors = new Counter({
    name: 'loki_prometheus_notifications_errors_total',
    help: 'Total number of errors sending alert notifications.',
    labelNames: ['user', 'alertmanager'],
    registers: r,
  });
  const dropped = new Counter({
    name: 'loki_prometheus_notifications_dropped_total',
    help: 'Total number of alerts dropped due to errors when sending to Alertmanager.',
    labelNames: ['user'],
    registers: r,
  });
  const queue = new Gauge({
    name: 'loki_prometheus_notifications_queue_length',
    help: 'The number of alert notifications in the queue.',
    labelNames: ['user'],
    registers: r,
  });
  const rwSamples = new Counter({
    name: 'loki_ruler_remote_write_samples_total',
    help: 'Recorded samples sent to remote-write endpoints.',
    labelNames: ['user'],
    registers: r,
  });
  const rwFailed = new Counter({
    name: 'loki_ruler_remote_write_samples_failed_total',
    help: 'Recorded samples whose remote write failed.',
    labelNames: ['user'],
    registers: r,
  });
  const forState = new Counter({
    name: 'loki_ruler_memory_for_state_evaluations_total',
    help: 'Queries run to restore the for state of alerts after a start.',
    labelNames: ['status', 'tenant'],
    registers: r,
  });
  return {
    evaluated(user, rule_group, seconds, failed) {
      evals.inc({ user, rule_group });
      if (failed) failures.inc({ user, rule_group });
      evalDuration.observe({ user }, seconds);
    },
    iteration(user, rule_group, seconds, lastEvalMs) {
      iterations.inc({ user, rule_group });
      groupDuration.observe({ user }, seconds);
      lastEval.set({ user, rule_group }, lastEvalMs / 1000);
    },
    iterationsMissed(user, rule_group, n) {
      missed.inc({ user, rule_group }, n);
      iterations.inc({ user, rule_group }, n);
    },
    notificationsSent: (user, alertmanager, n) => sent.inc({ user, alertmanager }, n),
    notificationsFailed: (user, alertmanager, n) => errors.inc({ user, alertmanager }, n),
    notificationsDropped: (user, n) => dropped.inc({ user }, n),
    notificationQueueLength: (user, n) => queue.set({ user }, n),
    remoteWrite(user, samples, failed) {
      (failed ? rwFailed : rwSamples).inc({ user }, samples);
    },
    forStateEvaluated: (tenant, ok) => forState.inc({ status: ok ? 'success' : 'failure', tenant }),
    ...remoteEvaluationMetrics(registry),
  };
}
