/**
 * What the ruler reports; the app exports it under Loki's names
 * (`loki_prometheus_rule_evaluations_total`, ...). `group` is `<namespace>;<group>`.
 */
export interface RulerMetrics {
  evaluated(tenant: string, group: string, seconds: number, failed: boolean): void;
  iteration(tenant: string, group: string, seconds: number, lastEvalMs: number): void;
  iterationsMissed(tenant: string, group: string, n: number): void;
  notificationsSent(tenant: string, alertmanager: string, n: number): void;
  notificationsFailed(tenant: string, alertmanager: string, n: number): void;
  notificationsDropped(tenant: string, n: number): void;
  notificationQueueLength(tenant: string, n: number): void;
  remoteWrite(tenant: string, samples: number, failed: boolean): void;
  /** One query run to restore alerts' `for` state after a start. */
  forStateEvaluated(tenant: string, ok: boolean): void;
  /** One remote evaluation (`ruler.evaluation.mode: remote`), as Loki's evaluator counts it. */
  remoteEvaluated(tenant: string, outcome: RemoteEvaluationOutcome): void;
}

/**
 * What one remote evaluation reports (Loki's `loki_ruler_remote_eval_*`): the call's duration
 * and answer size once the frontend answered or the call failed, the samples of a decoded
 * answer, and either success (the answer was accepted) or the reason it failed.
 */
export interface RemoteEvaluationOutcome {
  readonly seconds?: number;
  readonly bytes?: number;
  readonly samples?: number;
  readonly result?: 'success' | 'timeout' | 'error' | 'upstream_error' | 'max_size';
}

export const NO_METRICS: RulerMetrics = {
  evaluated: () => undefined,
  iteration: () => undefined,
  iterationsMissed: () => undefined,
  notificationsSent: () => undefined,
  notificationsFailed: () => undefined,
  notificationsDropped: () => undefined,
  notificationQueueLength: () => undefined,
  remoteWrite: () => undefined,
  forStateEvaluated: () => undefined,
  remoteEvaluated: () => undefined,
};
