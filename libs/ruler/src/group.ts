// One rule group of one tenant: evaluates its rules in order at a timestamp, as Prometheus'
// Group.Eval: alerts go to the notifier right after their rule, recorded samples to the
// appender after the whole group.
import { AlertingRule, type Alert, type AlertContext } from './alerting-rule';
import type { RulerMetrics } from './metrics';
import { isAlerting, type Rule, type RuleGroup } from './model';
import { recordSamples, type RecordedSeries } from './recording-rule';
import type { QueryFn } from './sample';

export type RuleHealth = 'unknown' | 'ok' | 'err';

export interface RuleStatus {
  readonly rule: Rule;
  readonly alerting?: AlertingRule;
  health: RuleHealth;
  lastError: string;
  lastEvalMs: number;
  evalSeconds: number;
}

export interface GroupDeps {
  readonly query: QueryFn;
  /** Alerts due for sending after an alerting rule's evaluation. */
  readonly notify: (tenant: string, expr: string, alerts: Alert[]) => void;
  /** Samples of the group's recording rules after an evaluation. */
  readonly append: (tenant: string, series: RecordedSeries[]) => Promise<void>;
  readonly metrics: RulerMetrics;
  readonly now: () => number;
  readonly resendDelayMs: number;
  readonly alertContext: AlertContext;
}

export class Group {
  readonly rules: RuleStatus[];
  lastEvalMs = 0;
  evalSeconds = 0;

  constructor(
    readonly tenant: string,
    readonly namespace: string,
    readonly group: RuleGroup,
    readonly intervalMs: number,
    private readonly deps: GroupDeps,
  ) {
    this.rules = group.rules.map((rule) => ({
      rule,
      ...(isAlerting(rule) ? { alerting: new AlertingRule(rule, deps.alertContext) } : {}),
      health: 'unknown',
      lastError: '',
      lastEvalMs: 0,
      evalSeconds: 0,
    }));
  }

  /** `<namespace>;<group>`, the `rule_group` label of the metrics. */
  get key(): string {
    return `${this.namespace};${this.group.name}`;
  }

  /** Takes over the alerts of same-named alerting rules of the group this one replaces. */
  copyState(from: Group): void {
    for (const r of this.rules) {
      const old = from.rules.find((o) => o.alerting && r.alerting && o.rule.alert === r.rule.alert);
      if (old?.alerting && r.alerting) {
        r.alerting.active = old.alerting.active;
        r.health = old.health;
        r.lastError = old.lastError;
        r.lastEvalMs = old.lastEvalMs;
      }
    }
    this.lastEvalMs = from.lastEvalMs;
  }

  async evaluate(tsMs: number): Promise<void> {
    const started = this.deps.now();
    const queryTs = tsMs - (this.group.queryOffsetMs ?? 0);
    const recorded: RecordedSeries[] = [];
    for (const r of this.rules) {
      const t0 = this.deps.now();
      let failed = false;
      try {
        const samples = await this.deps.query(this.tenant, r.rule.expr, queryTs);
        if (r.alerting) {
          r.alerting.update(samples, tsMs, this.group.limit);
        } else {
          recorded.push(...recordSamples(r.rule, samples, queryTs, this.group.limit));
        }
        r.health = 'ok';
        r.lastError = '';
      } catch (err) {
        failed = true;
        r.health = 'err';
        r.lastError = err instanceof Error ? err.message : String(err);
      }
      r.lastEvalMs = tsMs;
      r.evalSeconds = (this.deps.now() - t0) / 1000;
      this.deps.metrics.evaluated(this.tenant, this.key, r.evalSeconds, failed);
      if (r.alerting) {
        const due = r.alerting.alertsToSend(tsMs, this.deps.resendDelayMs, this.intervalMs);
        if (due.length > 0) this.deps.notify(this.tenant, r.rule.expr, due);
      }
    }
    if (recorded.length > 0) await this.deps.append(this.tenant, recorded);
    this.lastEvalMs = tsMs;
    this.evalSeconds = (this.deps.now() - started) / 1000;
    this.deps.metrics.iteration(this.tenant, this.key, this.evalSeconds, tsMs);
  }
}
