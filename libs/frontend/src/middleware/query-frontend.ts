/**
 * Loki's query frontend for `query` and `query_range`: checks a query against the tenants'
 * limits, splits range queries by `split_queries_by_interval` (aligned to the step), shards
 * what can be sharded by stream, answers metric splits from the results cache where it can,
 * sends the rest downstream, and recombines the answers exactly, with the statistics of every
 * sub-query merged.
 */
import type { Matcher, ResultStream, ShardRef } from '@logsvc/api';
import type { Overrides } from '@logsvc/config';
import {
  computeSummary,
  type DownstreamAnswer,
  evaluateOverDownstream,
  type Expr,
  type LogSelectorExpr,
  type MetricExpr,
  type RunQueryResult,
  logSelectors,
  MemoryBudget,
  printStreamSelector,
  streamsBytes,
  rangeReach,
} from '@logsvc/logql';
import { humanizeIBytes } from '@logsvc/gocompat';
import {
  emptyAnswer,
  ParamError,
  prepareQuery,
  QueryAbortedError,
  type QueryLimits,
  type QueryRequest,
} from '@logsvc/querier';
import { resultEntryCount, type QueryResult } from '@logsvc/api';
import { newCacheStats, type CacheStats } from '@logsvc/api';
import type { Downstream, SubQuery } from '../downstream';
import {
  type IngesterSplit,
  splitLogQuery,
  splitMetricQuery,
  type TimeRange,
} from '../split/split';
import { combinePieces, splitInstantPart } from '../split/instant-split';
import { combineShards, concatSplits, divideAnswers } from '../shard/combine';
import { mergeLogAnswers } from '../shard/log-merge';
import { type DownstreamNode, planMetricQuery } from '../shard/plan';
import { type AnswerCache, extractRange } from './answer-cache';
import { type FrontendLimits, frontendLimits, type Parallelism, shardFactor } from './limits';
import { checkQuerierBytes, type SizedPart } from './querier-size-limit';
import { SubQueryRunner } from './sub-query-runner';

export interface FrontendQueryRequest extends QueryRequest {
  /** `X-Logsvc-Actor-Path` / `X-Loki-Actor-Path`, split at `|`. */
  readonly actorPath?: readonly string[];
}

export interface FrontendQueryResult extends RunQueryResult {
  /** `stats.cache.result`. */
  readonly resultCache: CacheStats;
}

/** A stream selector of the query: its matchers and its LogQL text. */
export interface SelectorRef {
  readonly matchers: readonly Matcher[];
  readonly text: string;
}

/**
 * Bytes the index holds for streams matching any of the selectors in a range. `logQuery`: the
 * selectors are a log query's (a provider may count what only metric queries read faster).
 */
export type IndexBytes = (
  tenants: readonly string[],
  selectors: readonly SelectorRef[],
  fromNs: bigint,
  throughNs: bigint,
  logQuery: boolean,
) => Promise<number>;

export interface QueryFrontendOptions {
  readonly downstream: Downstream;
  readonly overrides: Overrides;
  readonly now: () => bigint;
  /** `query_range.parallelise_shardable_queries`. */
  readonly sharding: boolean;
  /**
   * `querier.query_ingesters_within` and `query_store_only`, for
   * `split_ingester_queries_by_interval` (without it, that limit has no effect).
   */
  readonly ingesterWindow?: {
    readonly queryIngestersWithinMs: number;
    readonly queryStoreOnly: boolean;
  };
  /** `query_range.align_queries_with_step`: round a metric query's end down to the step. */
  readonly alignQueriesWithStep?: boolean;
  /** Sizes shards; without it every shardable part gets `tsdb_max_query_parallelism` shards. */
  readonly indexBytes?: IndexBytes;
  /** `query_range.cache_results` with its cache; null = no results cache. */
  readonly cache: AnswerCache | null;
  /** What the downstream can run side by side, for shard factors (default: Loki's factors). */
  readonly parallelism?: Parallelism;
  /**
   * Compute the uncached splits of a metric query that touch as one range (per shard), and cut
   * the answer back into splits for the results cache; run log queries unsplit. For a
   * downstream on one machine, where the shards keep its workers busy and every extra split
   * reads the chunks at its edges again; off (Loki's way, splits spread over queriers) by
   * default.
   */
  readonly coalesceSplits?: boolean;
  /**
   * The tenants' results cache generation, which changes with their delete requests (Loki's
   * cache generation numbers); without it, one generation for ever.
   */
  readonly cacheGeneration?: (tenants: readonly string[]) => Promise<string>;
}

const NS_PER_MS = 1_000_000n;

interface QueryContext {
  readonly request: FrontendQueryRequest;
  readonly limits: FrontendLimits;
  /** `split_ingester_queries_by_interval` as it applies now; undefined = not set. */
  readonly ingester: IngesterSplit | undefined;
  readonly runner: SubQueryRunner;
  readonly cacheStats: CacheStats;
  splits: number;
  shards: number;
  generation?: Promise<string>;
  /** The index's bytes for the whole query, asked once. */
  wholeBytes?: Promise<number>;
}

export class QueryFrontend {
  constructor(private readonly options: QueryFrontendOptions) {}

  async query(request: FrontendQueryRequest): Promise<FrontendQueryResult> {
    const started = performance.now();
    const { overrides, now } = this.options;
    const prepared = prepareQuery(request, overrides, now(), {
      alignQueriesWithStep: this.options.alignQueriesWithStep,
    });
    if (prepared.empty) {
      return { ...emptyAnswer(request, prepared.isLogQuery), resultCache: newCacheStats() };
    }
    const { expr, limits, bounds } = prepared;
    const timeout = limits.query_timeout > 0 ? AbortSignal.timeout(limits.query_timeout) : null;
    const signal = timeout
      ? AbortSignal.any([request.clientSignal, timeout])
      : request.clientSignal;
    const frontend = frontendLimits(overrides, request.tenants);
    const ctx: QueryContext = {
      request: { ...request, startNs: bounds.startNs, endNs: bounds.endNs, stepNs: bounds.stepNs },
      limits: frontend,
      ingester: this.ingesterSplit(frontend),
      runner: new SubQueryRunner(
        this.options.downstream,
        frontend.maxQueryParallelism,
        signal,
        request.actorPath,
      ),
      cacheStats: newCacheStats(),
      splits: 0,
      shards: 0,
    };
    await this.checkQueryBytes(ctx, expr);
    await this.checkQuerierBytes(ctx, expr);
    let result: QueryResult;
    try {
      result =
        expr.kind === 'LogSelectorExpr'
          ? await this.logQuery(expr, ctx)
          : await this.metricQuery(expr, ctx, limits);
    } catch (err) {
      if (signal.aborted) throw new QueryAbortedError(timeout?.aborted === true);
      throw err;
    }
    const stats = ctx.runner.stats;
    stats.summary.splits = ctx.splits;
    stats.summary.shards = ctx.shards;
    stats.summary.subqueries = ctx.runner.count;
    computeSummary(stats, (performance.now() - started) / 1000, resultEntryCount(result));
    return { resultType: result.type, result, stats, resultCache: ctx.cacheStats };
  }

  // ---- log queries ------------------------------------------------------------------------

  private async logQuery(expr: LogSelectorExpr, ctx: QueryContext): Promise<QueryResult> {
    const { request, limits } = ctx;
    // An `interval` spaces entries across the whole answer: such queries run whole. So do all
    // log queries with `coalesceSplits`: a shard's sub-query reads newest (or oldest) first and
    // stops at the limit, where splits run side by side would each read up to it.
    const splits =
      request.intervalNs > 0n || this.options.coalesceSplits === true
        ? [{ startNs: request.startNs, endNs: request.endNs }]
        : this.lokiSplits(ctx, expr);
    const shardable = this.shardsLogQuery(request, expr);
    const answers: ResultStream[][] = [];
    const held = new MemoryBudget(limits.maxMemoryBytes);
    let entries = 0;
    // Splits in the query's direction, a batch at a time, until the limit is reached.
    for (let i = 0; i < splits.length && entries < request.limit;) {
      const batch = splits.slice(i, i + limits.maxQueryParallelism);
      i += batch.length;
      const results = await Promise.all(
        batch.map(async (range) => {
          const shards = shardable ? await this.shardsFor(ctx, expr, range) : 1;
          const parts = await Promise.all(
            shardList(shards).map((shard) =>
              ctx.runner.run(this.subQuery(ctx, range, request.query, shard)),
            ),
          );
          ctx.shards += shards > 1 ? shards : 0;
          const streams = parts.map((p) => (p.result.type === 'streams' ? p.result.streams : []));
          return mergeLogAnswers(streams, request.direction, request.limit);
        }),
      );
      for (const streams of results) {
        ctx.splits++;
        answers.push(streams);
        entries += streams.reduce((n, s) => n + s.entries.length, 0);
        // Each sub-query kept within the budget where it ran; their answers together must too.
        held.charge(streamsBytes(streams));
        if (entries >= request.limit) break;
      }
    }
    return { type: 'streams', streams: mergeLogAnswers(answers, request.direction, request.limit) };
  }

  // ---- metric queries ---------------------------------------------------------------------

  private async metricQuery(
    expr: MetricExpr,
    ctx: QueryContext,
    limits: QueryLimits,
  ): Promise<QueryResult> {
    const { request } = ctx;
    const nodes = planMetricQuery(expr, this.options.sharding);
    const splits = this.lokiSplits(ctx, expr);
    ctx.splits = request.kind === 'instant' ? 0 : splits.length;
    const answers = new Map<MetricExpr, DownstreamAnswer>();
    await Promise.all(
      nodes.map(async (node) =>
        answers.set(
          node.node,
          (await this.instantPieces(node, ctx)) ?? (await this.nodeOverSplits(node, splits, ctx)),
        ),
      ),
    );
    const metric = await evaluateOverDownstream(
      expr,
      {
        tenant: request.tenants.join('|'),
        startNs: request.startNs,
        endNs: request.endNs,
        stepNs: request.kind === 'instant' ? 0n : request.stepNs,
        kind: request.kind,
        signal: ctx.runner.signal,
        maxSeries: limits.max_query_series > 0 ? limits.max_query_series : Infinity,
        budget: new MemoryBudget(ctx.limits.maxMemoryBytes),
      },
      answers,
      ctx.runner.stats,
    );
    return metric;
  }

  /**
   * `split_instant_metric_queries_by_interval`: an instant query's node computed over pieces of
   * its range and joined; undefined when the node is not cut (see {@link splitInstantPart}).
   */
  private async instantPieces(
    node: DownstreamNode,
    ctx: QueryContext,
  ): Promise<DownstreamAnswer | undefined> {
    if (ctx.request.kind !== 'instant') return undefined;
    const split = splitInstantPart(node.node, Number(ctx.limits.instantSplitIntervalNs ?? 0n));
    if (split === undefined) return undefined;
    const planned = split.pieces.map((p) => planMetricQuery(p, this.options.sharding));
    if (planned.some((p) => p.length !== 1)) return undefined;
    ctx.splits += planned.length;
    const at = { startNs: ctx.request.endNs, endNs: ctx.request.endNs };
    const answers = await Promise.all(planned.map((p) => this.computeNode(p[0]!, at, ctx)));
    return combinePieces(answers, split.combine, split.divideBy);
  }

  /** Whether a log query is cut into shards. */
  private shardsLogQuery(request: FrontendQueryRequest, expr: LogSelectorExpr): boolean {
    // On one machine a bare selector runs unsharded: it reads only its `limit` newest (or
    // oldest) entries, and each shard would read as many; a pipeline may have to scan far.
    const bounded = this.options.coalesceSplits === true && expr.stages.length === 0;
    return request.intervalNs === 0n && this.options.sharding && preservesStreams(expr) && !bounded;
  }

  /** `split_ingester_queries_by_interval` with the ingester window, when it applies. */
  private ingesterSplit(limits: FrontendLimits): IngesterSplit | undefined {
    const window = this.options.ingesterWindow;
    const intervalNs = limits.ingesterSplitIntervalNs ?? 0n;
    if (window === undefined || window.queryStoreOnly || intervalNs <= 0n) return undefined;
    return {
      windowStartNs: this.options.now() - BigInt(window.queryIngestersWithinMs) * NS_PER_MS,
      intervalNs,
    };
  }

  /**
   * The split interval of a split for its results cache key (Loki's
   * `SplitIntervalForTimeRange`): the ingester interval when the split ends inside the window.
   */
  private cacheSplitInterval(ctx: QueryContext, range: TimeRange): bigint {
    const ingester = ctx.ingester;
    return ingester !== undefined && range.endNs > ingester.windowStartNs
      ? ingester.intervalNs
      : ctx.limits.splitIntervalNs;
  }

  /** The query's splits as Loki's split-by-interval middleware cuts them; instant: one. */
  private lokiSplits(ctx: QueryContext, expr: Expr): TimeRange[] {
    const { request, limits, ingester } = ctx;
    if (expr.kind === 'LogSelectorExpr')
      return splitLogQuery({
        startNs: request.startNs,
        endNs: request.endNs,
        intervalNs: limits.splitIntervalNs,
        direction: request.direction,
        ...(ingester === undefined ? {} : { ingester }),
      });
    if (request.kind === 'instant') return [{ startNs: request.endNs, endNs: request.endNs }];
    return splitMetricQuery({
      startNs: request.startNs,
      endNs: request.endNs,
      stepNs: request.stepNs,
      intervalNs: limits.splitIntervalNs,
      maxRangeNs: maxRangeNs(expr),
      ...(ingester === undefined ? {} : { ingester }),
    });
  }

  /** `max_querier_bytes_read`, per split and shard as Loki's sharding middleware checks it. */
  private async checkQuerierBytes(ctx: QueryContext, expr: Expr): Promise<void> {
    const limit = ctx.limits.maxQuerierBytesRead ?? 0;
    const indexBytes = this.options.indexBytes;
    if (limit <= 0 || indexBytes === undefined) return;
    const { request } = ctx;
    const parts: SizedPart[] =
      expr.kind === 'LogSelectorExpr'
        ? [{ expr, sharded: this.shardsLogQuery(request, expr) }]
        : planMetricQuery(expr, this.options.sharding).map((n) => ({
            expr: n.node,
            sharded: n.sharded,
          }));
    await checkQuerierBytes({
      limit,
      indexBytes,
      tenants: request.tenants,
      wholeBytes: () => this.wholeBytes(ctx, expr, indexBytes),
      expr,
      parts,
      splits: this.lokiSplits(ctx, expr),
      sharding: this.options.sharding,
      limits: ctx.limits,
      ...(this.options.parallelism === undefined ? {} : { parallelism: this.options.parallelism }),
    });
  }

  /** The tenants' cache generation, asked once per query. */
  private generation(ctx: QueryContext): Promise<string> {
    const ask = this.options.cacheGeneration;
    if (ask === undefined) return Promise.resolve('');
    ctx.generation ??= ask(ctx.request.tenants).then((g) => (g === '' ? '' : `${g}:`));
    return ctx.generation;
  }

  /**
   * One downstream node's answer over the splits: what the results cache holds, and the rest
   * computed (the missing ranges of every split together, see {@link computeRanges}).
   */
  private async nodeOverSplits(
    node: DownstreamNode,
    splits: readonly TimeRange[],
    ctx: QueryContext,
  ): Promise<DownstreamAnswer> {
    const lookups = await Promise.all(splits.map((range) => this.lookup(node, range, ctx)));
    const computed = await this.computeRanges(
      node,
      lookups.flatMap((l) => l.missing),
      ctx,
    );
    let next = 0;
    const perSplit = lookups.map((l) =>
      l.complete(computed.slice(next, (next += l.missing.length))),
    );
    return perSplit.length === 1 ? perSplit[0]! : concatSplits(perSplit);
  }

  /** What the results cache holds of a node over one split (nothing without a cache). */
  private async lookup(
    node: DownstreamNode,
    range: TimeRange,
    ctx: QueryContext,
  ): Promise<SplitLookup> {
    const cache = this.options.cache;
    const { request } = ctx;
    if (cache === null || request.kind === 'instant')
      return { missing: [range], complete: (answers) => answers[0]! };
    const found = cache.lookup(
      {
        tenants: request.tenants,
        query: node.parts.map((p) => p.query).join('\n'),
        startMs: Number(range.startNs / NS_PER_MS),
        endMs: Number(range.endNs / NS_PER_MS),
        stepMs: Number(request.stepNs / NS_PER_MS),
        splitIntervalNs: this.cacheSplitInterval(ctx, range),
        nowMs: Number(this.options.now() / NS_PER_MS),
        maxCacheFreshnessMs: ctx.limits.maxCacheFreshnessMs,
        generation: await this.generation(ctx),
      },
      ctx.cacheStats,
    );
    return {
      missing: found.missing.map((r) => ({
        startNs: BigInt(r.startMs) * NS_PER_MS,
        endNs: BigInt(r.endMs) * NS_PER_MS,
      })),
      complete: (answers) => found.complete(answers.map(asMatrix)),
    };
  }

  /**
   * The node's answer over each range (in time order). With `coalesceSplits`, ranges that
   * touch (no evaluation step between them) are computed as one, then cut back into the
   * ranges; a run is cut into pieces only as far as its shards leave workers idle.
   */
  private async computeRanges(
    node: DownstreamNode,
    ranges: readonly TimeRange[],
    ctx: QueryContext,
  ): Promise<DownstreamAnswer[]> {
    if (!this.options.coalesceSplits || ranges.length <= 1)
      return Promise.all(ranges.map((range) => this.computeNode(node, range, ctx)));
    const workers = this.options.parallelism?.workers ?? 1;
    const out = await Promise.all(
      touchingRuns(ranges, ctx.request.stepNs).map(async (run) => {
        const whole = { startNs: run[0]!.startNs, endNs: run.at(-1)!.endNs };
        const shards = node.sharded ? await this.shardsFor(ctx, node.node, whole) : 1;
        const pieces = evenPieces(run, Math.ceil(workers / shards));
        return (
          await Promise.all(
            pieces.map(async (piece) => {
              const range = { startNs: piece[0]!.startNs, endNs: piece.at(-1)!.endNs };
              const answer = await this.computeNode(
                node,
                range,
                ctx,
                pieces.length === 1 ? shards : undefined,
              );
              return piece.length === 1 ? [answer] : piece.map((r) => sliceAnswer(answer, r));
            }),
          )
        ).flat();
      }),
    );
    return out.flat();
  }

  private async computeNode(
    node: DownstreamNode,
    range: TimeRange,
    ctx: QueryContext,
    knownShards?: number,
  ): Promise<DownstreamAnswer> {
    const shards = knownShards ?? (node.sharded ? await this.shardsFor(ctx, node.node, range) : 1);
    if (shards > 1) ctx.shards += shards;
    const parts = await Promise.all(
      node.parts.map(async (part) => {
        const results = await Promise.all(
          shardList(shards).map((shard) =>
            ctx.runner.run(this.subQuery(ctx, range, part.query, shard)),
          ),
        );
        return combineShards(
          results.map((r) => toAnswer(r.result)),
          part.combine,
        );
      }),
    );
    return node.join === 'avg' ? divideAnswers(parts[0]!, parts[1]!) : parts[0]!;
  }

  private subQuery(
    ctx: QueryContext,
    range: TimeRange,
    query: string,
    shard: ShardRef | undefined,
  ): SubQuery {
    const { request } = ctx;
    return {
      kind: request.kind,
      query,
      startNs: range.startNs,
      endNs: range.endNs,
      stepNs: request.stepNs,
      intervalNs: request.intervalNs,
      limit: request.limit,
      direction: request.direction,
      tenants: request.tenants,
      ...(shard === undefined ? {} : { shard }),
      ...(request.categorizeLabels ? { categorizeLabels: true } : {}),
    };
  }

  /**
   * `max_query_bytes_read`: Loki's query size limiter, which asks the index how many bytes the
   * whole query would read and refuses it with a 400 above the limit.
   */
  private async checkQueryBytes(ctx: QueryContext, expr: Expr): Promise<void> {
    const limit = ctx.limits.maxQueryBytesRead ?? 0;
    const indexBytes = this.options.indexBytes;
    if (limit <= 0 || indexBytes === undefined) return;
    const bytes = await this.wholeBytes(ctx, expr, indexBytes);
    if (bytes > limit) {
      throw new ParamError(
        `the query would read too many bytes (query: ${humanizeIBytes(bytes)}, limit: ${humanizeIBytes(limit)}); consider adding more specific stream selectors or reduce the time range of the query`,
      );
    }
  }

  /** The bytes the index holds for the whole query's selectors and range, asked once. */
  private wholeBytes(ctx: QueryContext, expr: Expr, indexBytes: IndexBytes): Promise<number> {
    const selectors = logSelectors(expr).map((s) => ({
      matchers: s.selector.matchers,
      text: printStreamSelector(s.selector),
    }));
    ctx.wholeBytes ??= indexBytes(
      ctx.request.tenants,
      selectors,
      ctx.request.startNs - maxRangeNs(expr),
      ctx.request.endNs,
      expr.kind === 'LogSelectorExpr',
    );
    return ctx.wholeBytes;
  }

  /** How many shards a part of the query over `range` is cut into. */
  private async shardsFor(ctx: QueryContext, expr: Expr, range: TimeRange): Promise<number> {
    const indexBytes = this.options.indexBytes;
    if (indexBytes === undefined) return ctx.limits.maxShards;
    const selectors = logSelectors(expr).map((s) => ({
      matchers: s.selector.matchers,
      text: printStreamSelector(s.selector),
    }));
    const bytes = await indexBytes(
      ctx.request.tenants,
      selectors,
      range.startNs - maxRangeNs(expr),
      range.endNs,
      expr.kind === 'LogSelectorExpr',
    );
    return shardFactor(bytes, ctx.limits, this.options.parallelism);
  }
}

/** A split's lookup in the results cache, in nanoseconds. */
interface SplitLookup {
  readonly missing: readonly TimeRange[];
  complete(answers: readonly DownstreamAnswer[]): DownstreamAnswer;
}

type Matrix = Extract<DownstreamAnswer, { type: 'matrix' }>;

function asMatrix(answer: DownstreamAnswer): Matrix {
  return answer.type === 'matrix' ? answer : { type: 'matrix', series: [] };
}

/** Ranges (in time order) grouped into runs where each range starts within a step of the last. */
function touchingRuns(ranges: readonly TimeRange[], stepNs: bigint): TimeRange[][] {
  const runs: TimeRange[][] = [];
  for (const range of ranges) {
    const run = runs.at(-1);
    if (run !== undefined && range.startNs <= run.at(-1)!.endNs + stepNs) run.push(range);
    else runs.push([range]);
  }
  return runs;
}

/** `run` cut into at most `count` contiguous pieces of near-equal length. */
function evenPieces<T>(run: readonly T[], count: number): T[][] {
  const n = Math.max(1, Math.min(count, run.length));
  return Array.from({ length: n }, (_, i) =>
    run.slice(Math.floor((i * run.length) / n), Math.floor(((i + 1) * run.length) / n)),
  );
}

/** The points of a range answer inside `range`. */
function sliceAnswer(answer: DownstreamAnswer, range: TimeRange): DownstreamAnswer {
  if (answer.type !== 'matrix') return answer;
  return extractRange(answer, Number(range.startNs / NS_PER_MS), Number(range.endNs / NS_PER_MS));
}

function shardList(shards: number): (ShardRef | undefined)[] {
  if (shards <= 1) return [undefined];
  return Array.from({ length: shards }, (_, index) => ({ index, of: shards }));
}

function toAnswer(result: QueryResult): DownstreamAnswer {
  if (result.type === 'matrix')
    return {
      type: 'matrix',
      series: result.series.map((s) => ({
        labels: s.labels,
        points: s.points.map(([t, v]) => [t, v]),
      })),
    };
  if (result.type === 'vector') return { type: 'vector', samples: [...result.samples] };
  return { type: 'vector', samples: [] };
}

/** A log query whose entries keep their stream's labels, so each stream lives in one shard. */
function preservesStreams(expr: LogSelectorExpr): boolean {
  return expr.stages.every(
    (s) => s.kind !== 'DropLabels' && s.kind !== 'KeepLabels' && s.kind !== 'LabelFormat',
  );
}

/** The longest range (plus offset) of the query's range aggregations, in ns. */
function maxRangeNs(expr: Expr): bigint {
  return BigInt(rangeReach(expr).backNs);
}
