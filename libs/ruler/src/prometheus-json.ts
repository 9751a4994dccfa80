// Loki's PrometheusRules and PrometheusAlerts answers (pkg/ruler/base/api.go).
import type {
  AlertingRuleJson,
  AlertsResponse,
  RecordingRuleJson,
  RuleGroupJson,
  RulesAlertJson,
  RulesResponse,
} from '@logsvc/api';
import * as template from '@logsvc/gotemplate';
import { lokiExprString, parseExpr } from '@logsvc/logql';
import type { Alert } from './alerting-rule';
import type { Group } from './group';
import { RuleGroupError } from './errors';

/** Go's time.Time in JSON (RFC 3339 with trimmed nanoseconds; 0 = Go's zero time). */
export function goTimeJson(ms: number): string {
  if (ms === 0) return '0001-01-01T00:00:00Z';
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/**
 * A rule's query as Loki lists it: parsed and printed again by its LogQL parser
 * (`(sum by (app)(rate({app="api"}[5m])) > 2)`). The stored rule keeps the text as posted.
 */
export function listedQuery(expr: string): string {
  try {
    return lokiExprString(parseExpr(expr));
  } catch {
    return expr;
  }
}

/** strconv.FormatFloat(v, 'e', -1, 64). */
export function goExp(v: number): string {
  return template.formatFloat(v, 'e', -1);
}

export interface RulesFilter {
  /** `type`: `alert` or `record`. */
  readonly type?: 'alert' | 'record';
  readonly files: readonly string[];
  readonly groups: readonly string[];
  readonly names: readonly string[];
}

/** Reads the `type` parameter; an unknown value is Loki's `not supported value "x"` (400). */
export function parseRuleType(value: string | undefined): RulesFilter['type'] {
  const v = (value ?? '').toLowerCase();
  if (v === '') return undefined;
  if (v === 'alert' || v === 'record') return v;
  throw new RuleGroupError(`not supported value ${JSON.stringify(v)}`);
}

function alertJson(a: Alert): RulesAlertJson {
  return {
    labels: a.labels,
    annotations: a.annotations,
    state: a.state,
    activeAt: goTimeJson(a.activeAtMs),
    value: goExp(a.value),
  };
}

export function rulesResponse(groups: readonly Group[], filter: RulesFilter): RulesResponse {
  const out: RuleGroupJson[] = [];
  for (const g of groups) {
    if (filter.files.length > 0 && !filter.files.includes(g.namespace)) continue;
    if (filter.groups.length > 0 && !filter.groups.includes(g.group.name)) continue;
    const rules: Array<AlertingRuleJson | RecordingRuleJson> = [];
    for (const r of g.rules) {
      const name = r.rule.alert || r.rule.record || '';
      if (filter.names.length > 0 && !filter.names.includes(name)) continue;
      if (r.alerting) {
        if (filter.type === 'record') continue;
        rules.push({
          state: r.alerting.state(),
          name,
          query: listedQuery(r.rule.expr),
          duration: r.rule.forMs / 1000,
          labels: r.rule.labels as Record<string, string>,
          annotations: r.rule.annotations as Record<string, string>,
          alerts: r.alerting.activeAlerts().map(alertJson),
          health: r.health,
          lastError: r.lastError,
          type: 'alerting',
          lastEvaluation: goTimeJson(r.lastEvalMs),
          evaluationTime: r.evalSeconds,
        });
      } else {
        if (filter.type === 'alert') continue;
        rules.push({
          name,
          query: listedQuery(r.rule.expr),
          labels: r.rule.labels as Record<string, string>,
          health: r.health,
          lastError: r.lastError,
          type: 'recording',
          lastEvaluation: goTimeJson(r.lastEvalMs),
          evaluationTime: r.evalSeconds,
        });
      }
    }
    // Loki drops a group whose rules were all filtered out.
    if (rules.length === 0 && (filter.type || filter.names.length > 0)) continue;
    out.push({
      name: g.group.name,
      file: g.namespace,
      rules,
      interval: g.intervalMs / 1000,
      limit: g.group.limit,
      lastEvaluation: goTimeJson(g.lastEvalMs),
      evaluationTime: g.evalSeconds,
    });
  }
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { status: 'success', data: { groups: out }, errorType: '', error: '' };
}

export function alertsResponse(groups: readonly Group[]): AlertsResponse {
  const alerts: RulesAlertJson[] = [];
  for (const g of groups)
    for (const r of g.rules)
      if (r.alerting) alerts.push(...r.alerting.activeAlerts().map(alertJson));
  return { status: 'success', data: { alerts }, errorType: '', error: '' };
}
