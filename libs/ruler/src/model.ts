/**
 * A rule group as Prometheus' rule files (rulefmt) describe it, with LogQL expressions.
 * Durations are milliseconds; 0 means "not set" (Prometheus' zero model.Duration).
 */
export interface Rule {
  /** Recording rule: the name of the series it writes. */
  readonly record?: string;
  /** Alerting rule: the alert's name. */
  readonly alert?: string;
  readonly expr: string;
  /** How long an alert stays pending before it fires. */
  readonly forMs: number;
  readonly keepFiringForMs: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

export interface RuleGroup {
  readonly name: string;
  /** 0: the ruler's `evaluation_interval`. */
  readonly intervalMs: number;
  /** `query_offset`, when set. */
  readonly queryOffsetMs?: number;
  /** Most alerts or series a rule may produce; 0 = no limit. */
  readonly limit: number;
  readonly rules: readonly Rule[];
}

/** Groups of one namespace, in their stored order. */
export type Namespace = readonly RuleGroup[];

/** Every namespace of a tenant, by name. */
export type TenantRules = ReadonlyMap<string, Namespace>;

export function isAlerting(rule: Rule): boolean {
  return (rule.alert ?? '') !== '';
}

/** The rule's name: the alert or the recorded series. */
export function ruleName(rule: Rule): string {
  return rule.alert || rule.record || '';
}
