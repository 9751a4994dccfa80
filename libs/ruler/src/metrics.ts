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
};
