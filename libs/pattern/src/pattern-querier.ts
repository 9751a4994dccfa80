import type { PatternIngesterClient } from './pattern-client';
import { mergePatternSeries, prunePatterns } from './pattern-merge';
import type { PatternQuery, PatternSeries } from './pattern-query';

/** Loki's ingesterQuerierMetrics: patterns dropped and kept by each query's prune. */
export interface PatternQuerierCounters {
  queried(pruned: number, retained: number): void;
}

/**
 * The querier's side of `GET /patterns` (Loki's IngesterQuerier): asks every healthy pattern
 * ingester, sums identical patterns, and keeps the frequent ones. One failed ingester fails
 * the query, as in Loki.
 */
export class PatternQuerier {
  constructor(
    private readonly ingesters: () => readonly PatternIngesterClient[],
    private readonly counters?: PatternQuerierCounters,
  ) {}

  async patterns(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    const answers = await Promise.all(this.ingesters().map((i) => i.query(tenant, query)));
    const merged = mergePatternSeries(answers);
    const kept = prunePatterns(merged);
    this.counters?.queried(merged.length - kept.length, kept.length);
    return kept;
  }
}
