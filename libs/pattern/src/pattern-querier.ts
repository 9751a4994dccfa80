import type { PatternIngesterClient } from './pattern-client';
import { mergePatternSeries, prunePatterns } from './pattern-merge';
import type { PatternQuery, PatternSeries } from './pattern-query';

/**
 * The querier's side of `GET /patterns` (Loki's IngesterQuerier): asks every healthy pattern
 * ingester, sums identical patterns, and keeps the frequent ones. One failed ingester fails
 * the query, as in Loki.
 */
export class PatternQuerier {
  constructor(private readonly ingesters: () => readonly PatternIngesterClient[]) {}

  async patterns(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    const answers = await Promise.all(this.ingesters().map((i) => i.query(tenant, query)));
    return prunePatterns(mergePatternSeries(answers));
  }
}
