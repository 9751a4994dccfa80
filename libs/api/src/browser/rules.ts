// JSON shapes of the ruler's Prometheus-compatible answers (`/compat/api/v1/rules`,
// `/compat/api/v1/alerts`, and Loki's `/prometheus/api/v1/...`), as Loki's ruler writes them.

export interface RulesAlertJson {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing' | 'inactive';
  /** RFC 3339 time the alert became active. */
  activeAt: string;
  /** The last value, in Go's `%e` form (`1e+00`). */
  value: string;
}

export interface AlertingRuleJson {
  state: 'pending' | 'firing' | 'inactive';
  name: string;
  query: string;
  /** `for`, in seconds. */
  duration: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  alerts: RulesAlertJson[];
  health: 'unknown' | 'ok' | 'err';
  lastError: string;
  type: 'alerting';
  lastEvaluation: string;
  evaluationTime: number;
}

export interface RecordingRuleJson {
  name: string;
  query: string;
  labels: Record<string, string>;
  health: 'unknown' | 'ok' | 'err';
  lastError: string;
  type: 'recording';
  lastEvaluation: string;
  evaluationTime: number;
}

export interface RuleGroupJson {
  name: string;
  /** The namespace. */
  file: string;
  rules: Array<AlertingRuleJson | RecordingRuleJson>;
  /** Seconds. */
  interval: number;
  limit: number;
  lastEvaluation: string;
  evaluationTime: number;
}

export interface PrometheusResponse<T> {
  status: 'success' | 'error';
  data: T | null;
  errorType: string;
  error: string;
}

export type RulesResponse = PrometheusResponse<{ groups: RuleGroupJson[] }>;
export type AlertsResponse = PrometheusResponse<{ alerts: RulesAlertJson[] }>;
