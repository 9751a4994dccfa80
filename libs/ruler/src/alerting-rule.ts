// Prometheus' AlertingRule (rules/alerting.go): inactive → pending → firing with `for`,
// resolution kept for 15 minutes, `keep_firing_for`, templated labels and annotations.
import type { Rule } from './model';
import { labelsKey, sortedLabels, type Sample } from './sample';
import { expandAlertTemplate, TemplateQueries } from './template';

/** Rounds of template expansion that may ask for new queries (`query` inside `query`). */
const MAX_QUERY_ROUNDS = 3;

export type AlertState = 'inactive' | 'pending' | 'firing';
const RANK: Record<AlertState, number> = { inactive: 0, pending: 1, firing: 2 };

/** Prometheus keeps a resolved alert this long so the resolution reaches Alertmanager. */
export const RESOLVED_RETENTION_MS = 15 * 60_000;

export interface Alert {
  state: AlertState;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  value: number;
  /** Times in ms since the epoch; 0 = not set (Go's zero time). */
  activeAtMs: number;
  firedAtMs: number;
  resolvedAtMs: number;
  lastSentAtMs: number;
  validUntilMs: number;
  keepFiringSinceMs: number;
}

export interface AlertContext {
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalURL: string;
}

export class AlertingRule {
  /** By label set: the alerts this rule holds (pending, firing, or resolved within retention). */
  active = new Map<string, Alert>();

  constructor(
    readonly rule: Rule,
    private readonly context: AlertContext,
  ) {}

  get name(): string {
    return this.rule.alert ?? '';
  }

  /**
   * One evaluation at `tsMs` given the query's result. Throws (leaving the state untouched)
   * when two samples give the same alert labels, and drops every alert past `limit`.
   */
  update(samples: readonly Sample[], tsMs: number, limit: number, queries?: TemplateQueries): void {
    const fresh = new Map<string, Alert>();
    for (const s of samples) {
      const data = this.templateData(s);
      const labels = this.alertLabels(s, data, queries);
      const annotations: Record<string, string> = {};
      for (const [k, v] of Object.entries(this.rule.annotations))
        annotations[k] = expandAlertTemplate(this.name, v, data, queries);
      const key = labelsKey(labels);
      if (fresh.has(key)) {
        throw new Error(
          'vector contains metrics with the same labelset after applying alert labels',
        );
      }
      fresh.set(key, {
        state: 'pending',
        labels: sortedLabels(labels),
        annotations: sortedLabels(annotations),
        value: s.value,
        activeAtMs: tsMs,
        firedAtMs: 0,
        resolvedAtMs: 0,
        lastSentAtMs: 0,
        validUntilMs: 0,
        keepFiringSinceMs: 0,
      });
    }

    for (const [key, a] of fresh) {
      const old = this.active.get(key);
      if (old && old.state !== 'inactive') {
        old.value = a.value;
        old.annotations = a.annotations;
        continue;
      }
      this.active.set(key, a);
    }

    let activeCount = 0;
    for (const [key, a] of this.active) {
      if (!fresh.has(key)) {
        let keepFiring = false;
        if (a.state === 'firing' && this.rule.keepFiringForMs > 0) {
          if (a.keepFiringSinceMs === 0) a.keepFiringSinceMs = tsMs;
          if (tsMs - a.keepFiringSinceMs < this.rule.keepFiringForMs) keepFiring = true;
        }
        if (
          a.state === 'pending' ||
          (a.resolvedAtMs !== 0 && tsMs - a.resolvedAtMs > RESOLVED_RETENTION_MS)
        ) {
          this.active.delete(key);
        }
        if (a.state !== 'inactive' && !keepFiring) {
          a.state = 'inactive';
          a.resolvedAtMs = tsMs;
        }
        if (!keepFiring) continue;
      } else {
        a.keepFiringSinceMs = 0;
      }
      activeCount++;
      if (a.state === 'pending' && tsMs - a.activeAtMs >= this.rule.forMs) {
        a.state = 'firing';
        a.firedAtMs = tsMs;
      }
    }

    if (limit > 0 && activeCount > limit) {
      this.active = new Map();
      throw new Error(`exceeded limit of ${limit} with ${activeCount} alerts`);
    }
  }

  /**
   * Loki's restore of `for` state after a restart (its ruler's MemStore, after the second
   * evaluation of a group loaded at start): the rule's query ran at `checkMs`, `for` before
   * now, gave `samples`; a pending alert whose series was there too counts as active since
   * then (to the second, as Prometheus stores it), so it fires at the next evaluation.
   */
  restoreFor(samples: readonly Sample[], checkMs: number): void {
    const heldThen = new Set(
      samples.map((s) => labelsKey(this.alertLabels(s, this.templateData(s)))),
    );
    for (const [key, a] of this.active) {
      if (a.state === 'pending' && heldThen.has(key))
        a.activeAtMs = Math.floor(checkMs / 1000) * 1000;
    }
  }

  /**
   * Runs the queries the rule's templates ask for with `query` (Prometheus runs them while it
   * expands; templates here run synchronously, so first): expands them for each sample,
   * runs what they asked for, and again while new queries come up. Undefined when no
   * template calls `query`.
   */
  async prefetchQueries(
    samples: readonly Sample[],
    run: (query: string) => Promise<readonly Sample[]>,
  ): Promise<TemplateQueries | undefined> {
    const templates = [...Object.values(this.rule.labels), ...Object.values(this.rule.annotations)];
    if (!templates.some((t) => /\bquery\b/.test(t))) return undefined;
    const queries = new TemplateQueries();
    for (let round = 0; round < MAX_QUERY_ROUNDS; round++) {
      queries.wanted.clear();
      for (const s of samples) {
        const data = this.templateData(s);
        for (const t of templates) expandAlertTemplate(this.name, t, data, queries);
      }
      if (queries.wanted.size === 0) break;
      for (const q of queries.wanted) {
        try {
          queries.results.set(q, await run(q));
        } catch (err) {
          queries.results.set(q, err instanceof Error ? err : new Error(String(err)));
        }
      }
    }
    return queries;
  }

  private templateData(s: Sample) {
    return {
      labels: s.labels,
      externalLabels: this.context.externalLabels,
      externalURL: this.context.externalURL,
      value: s.value,
    };
  }

  /** A sample's alert labels: its own without `__name__`, the rule's (templated), alertname. */
  private alertLabels(
    s: Sample,
    data: ReturnType<AlertingRule['templateData']>,
    queries?: TemplateQueries,
  ): Record<string, string> {
    const labels: Record<string, string> = { ...s.labels };
    delete labels.__name__;
    for (const [k, v] of Object.entries(this.rule.labels))
      labels[k] = expandAlertTemplate(this.name, v, data, queries);
    labels.alertname = this.name;
    return labels;
  }

  /** The highest state of the rule's alerts. */
  state(): AlertState {
    let max: AlertState = 'inactive';
    for (const a of this.active.values()) if (RANK[a.state] > RANK[max]) max = a.state;
    return max;
  }

  /** Alerts not resolved: pending and firing. */
  activeAlerts(): Alert[] {
    return [...this.active.values()].filter((a) => a.resolvedAtMs === 0).map((a) => ({ ...a }));
  }

  /**
   * Prometheus' sendAlerts: the alerts due for (re)sending at `tsMs`, marked sent; each is
   * valid for four intervals (or resend delays), so two missed evaluations do not resolve it.
   */
  alertsToSend(tsMs: number, resendDelayMs: number, intervalMs: number): Alert[] {
    const out: Alert[] = [];
    for (const a of this.active.values()) {
      if (!needsSending(a, tsMs, resendDelayMs)) continue;
      a.lastSentAtMs = tsMs;
      a.validUntilMs = tsMs + 4 * Math.max(resendDelayMs, intervalMs);
      out.push({ ...a, labels: { ...a.labels } });
    }
    return out;
  }
}

function needsSending(a: Alert, tsMs: number, resendDelayMs: number): boolean {
  if (a.state === 'pending') return false;
  if (a.resolvedAtMs > a.lastSentAtMs) return true;
  return a.lastSentAtMs + resendDelayMs < tsMs;
}
