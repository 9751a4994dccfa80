/**
 * Runs the sub-queries of one query: at most `max_query_parallelism` at once, all aborted when
 * one fails or the query is aborted, their statistics gathered.
 */
import { mergeQueryStats, newQueryStats, type QueryStats } from '@logsvc/logql';
import type { Downstream, SubQuery, SubQueryResult } from '../downstream';

export class SubQueryRunner {
  readonly stats: QueryStats = newQueryStats();
  /** Sub-queries sent. */
  count = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly failed = new AbortController();
  readonly signal: AbortSignal;

  constructor(
    private readonly downstream: Downstream,
    private readonly parallelism: number,
    signal: AbortSignal,
    private readonly actorPath: readonly string[] | undefined,
  ) {
    this.signal = AbortSignal.any([signal, this.failed.signal]);
  }

  async run(query: SubQuery): Promise<SubQueryResult> {
    await this.slot();
    try {
      this.signal.throwIfAborted();
      this.count++;
      const result = await this.downstream.run(query, {
        signal: this.signal,
        ...(this.actorPath === undefined ? {} : { actorPath: this.actorPath }),
      });
      mergeQueryStats(this.stats, result.stats);
      return result;
    } catch (err) {
      this.failed.abort(err);
      throw err;
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async slot(): Promise<void> {
    while (this.running >= this.parallelism) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
  }
}
