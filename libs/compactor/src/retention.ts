// Retention periods per stream, as Loki's retention/expiration.go decides them: the matching
// `retention_stream` rule of highest priority (equal priorities: the shortest period), else the
// tenant's `retention_period`; 0 means keep forever.
import { type Labels, compileMatcher } from '@logsvc/api';
import { parseMatchers } from '@logsvc/logql';

export interface RetentionStreamRule {
  readonly selector: string;
  readonly priority: number;
  /** Milliseconds. */
  readonly period: number;
}

export interface RetentionLimits {
  /** Milliseconds; 0 = forever. */
  readonly retention_period: number;
  readonly retention_stream: readonly RetentionStreamRule[];
}

interface CompiledRule {
  readonly matchers: ReadonlyArray<{ name: string; matches(v: string): boolean }>;
  readonly priority: number;
  readonly period: number;
}

/** One tenant's retention, compiled once per compaction run. */
export class RetentionRules {
  private readonly rules: CompiledRule[];
  private readonly global: number;

  constructor(limits: RetentionLimits) {
    this.global = limits.retention_period;
    this.rules = limits.retention_stream.map((r) => ({
      matchers: parseMatchers(r.selector).map((m) => {
        const c = compileMatcher({ type: m.type, name: m.name, value: m.value });
        return { name: m.name, matches: (v: string) => c.matches(v) };
      }),
      priority: r.priority,
      period: r.period,
    }));
  }

  /** Whether any stream can expire at all. */
  get enabled(): boolean {
    return this.global > 0 || this.rules.some((r) => r.period > 0);
  }

  /** The retention period of a stream in ms (0 = forever). */
  periodFor(labels: Labels): number {
    let found: CompiledRule | undefined;
    for (const rule of this.rules) {
      if (!rule.matchers.every((m) => m.matches(valueOf(labels, m.name)))) continue;
      if (found !== undefined) {
        if (found.priority > rule.priority) continue;
        if (found.priority === rule.priority && found.period <= rule.period) continue;
      }
      found = rule;
    }
    return found !== undefined ? found.period : this.global;
  }

  /** Loki's Expired: a chunk whose last entry is older than the stream's period. */
  expired(labels: Labels, throughMs: number, nowMs: number): boolean {
    const period = this.periodFor(labels);
    return period > 0 && nowMs - throughMs > period;
  }
}

function valueOf(labels: Labels, name: string): string {
  for (const p of labels) if (p.name === name) return p.value;
  return '';
}
