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
  /**
   * `ruler.for_grace_period`: alerting rules with a shorter `for` are not restored after a
   * restart (they would fire sooner than the grace period anyway).
   */
  readonly forGracePeriodMs?: number;
}

/** Loki's `ruler.for-grace-period` default. */
export const DEFAULT_FOR_GRACE_PERIOD_MS = 10 * 60_000;

export class Group {
  readonly rules: RuleStatus[];
  lastEvalMs = 0;
  evalSeconds = 0;
  /**
   * Set for the groups a ruler loads as it starts (Prometheus' `shouldRestore`): their
   * alerts' `for` state is restored after the second evaluation (see `restore`).
   */
  restoreForState = false;
  private evaluations = 0;

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

  /**
   * Loki's ruler keeps no alert state across restarts; it restores `for` by evaluating each
   * alerting rule's query again `for` before now (its MemStore): an alert pending now whose
   * series was there then has been pending all along, and fires at the next evaluation. Rules
   * whose `for` is under the grace period are skipped, as are rules with nothing pending.
   */
  private async restore(nowMs: number): Promise<void> {
    const grace = this.deps.forGracePeriodMs ?? DEFAULT_FOR_GRACE_PERIOD_MS;
    for (const r of this.rules) {
      const alerting = r.alerting;
      if (!alerting || r.rule.forMs < grace) continue;
      if (!alerting.activeAlerts().some((a) => a.state === 'pending')) continue;
      const checkMs = nowMs - r.rule.forMs;
      try {
        const samples = await this.deps.query(this.tenant, r.rule.expr, checkMs);
        alerting.restoreFor(samples, checkMs);
        this.deps.metrics.forStateEvaluated(this.tenant, true);
      } catch {
        // As in Loki: the alert keeps waiting its whole `for`.
        this.deps.metrics.forStateEvaluated(this.tenant, false);
      }
    }
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
          // Prometheus runs a template's queries at the evaluation time, without the offset.
          const queries = await r.alerting.prefetchQueries(samples, (q) =>
            this.deps.query(this.tenant, q, tsMs),
          );
          r.alerting.update(samples, tsMs, this.group.limit, queries);
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
    // Prometheus restores after the second evaluation: by then, recording rules the alerts may
    // read have run once more.
    if (this.restoreForState && ++this.evaluations === 2) {
      this.restoreForState = false;
      await this.restore(this.deps.now());
    }
    this.lastEvalMs = tsMs;
    this.evalSeconds = (this.deps.now() - started) / 1000;
    this.deps.metrics.iteration(this.tenant, this.key, this.evalSeconds, tsMs);
  }
}
