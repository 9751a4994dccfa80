/**
 * `max_querier_bytes_read`: Loki's check that no single sub-query (one split, one shard) would
 * read more than the limit, by the bytes the index reports (pkg/querier/queryrange:
 * querysharding.go `checkQuerySizeLimit`, limits.go `NewQuerierSizeLimiterMiddleware`). With
 * sharding, a part's bytes are divided by its shard factor and the largest part counts; a query
 * none of whose parts is sharded, or one run with sharding off, counts its split's bytes whole.
 * As in Loki, a log query without a filter is not checked when sharding is off (it takes Loki's
 * "limited" path, which has no size limiter).
 */
import {
  type Expr,
  type LogSelectorExpr,
  logSelectors,
  printStreamSelector,
  rangeReach,
} from '@logsvc/logql';
import { humanizeIBytes } from '@logsvc/gocompat';
import { ParamError } from '@logsvc/querier';
import type { TimeRange } from '../split/split';
import { type FrontendLimits, type Parallelism, shardFactor } from './limits';
import type { IndexBytes } from './query-frontend';

/** A part of the query that runs downstream, and whether the frontend shards it. */
export interface SizedPart {
  readonly expr: Expr;
  readonly sharded: boolean;
}

export interface QuerierSizeCheck {
  readonly limit: number;
  readonly indexBytes: IndexBytes;
  readonly tenants: readonly string[];
  /** The bytes of the whole query (they bound every split's: within the limit, no more). */
  readonly wholeBytes: () => Promise<number>;
  readonly expr: Expr;
  readonly parts: readonly SizedPart[];
  /** The splits as Loki cuts the query. */
  readonly splits: readonly TimeRange[];
  /** `query_range.parallelise_shardable_queries`. */
  readonly sharding: boolean;
  readonly limits: FrontendLimits;
  readonly parallelism?: Parallelism;
}

// Loki 3.4.6 pkg/querier/queryrange/limits.go.
const QUERIER_TOO_MANY_BYTES =
  'query too large to execute on a single querier: (query: %s, limit: %s); consider adding more specific stream selectors, reduce the time range of the query, or adjust parallelization settings';
const UNSHARDABLE_TOO_MANY_BYTES =
  'un-shardable query too large to execute on a single querier: (query: %s, limit: %s); consider adding more specific stream selectors or reduce the time range of the query';
const SHARD_TOO_MANY_BYTES =
  'shard query is too large to execute on a single querier: (query: %s, limit: %s); consider adding more specific stream selectors or reduce the time range of the query';

/** Loki's index requests at once for one query (`maxConcurrentIndexReq`). */
const CONCURRENT_INDEX_REQUESTS = 10;

function bytesOf(check: QuerierSizeCheck, expr: Expr, range: TimeRange): Promise<number> {
  const selectors = logSelectors(expr).map((s) => ({
    matchers: s.selector.matchers,
    text: printStreamSelector(s.selector),
  }));
  return check.indexBytes(
    check.tenants,
    selectors,
    range.startNs - BigInt(rangeReach(expr).backNs),
    range.endNs,
    expr.kind === 'LogSelectorExpr',
  );
}

interface SplitSize {
  /** The bytes the largest sub-query of the split reads. */
  readonly bytes: number;
  /** No part of the split is cut into shards. */
  readonly unsharded: boolean;
}

async function splitSize(check: QuerierSizeCheck, range: TimeRange): Promise<SplitSize> {
  const sizes = await Promise.all(
    check.parts.map(async (part) => {
      const bytes = await bytesOf(check, part.expr, range);
      const shards =
        check.sharding && part.sharded ? shardFactor(bytes, check.limits, check.parallelism) : 1;
      return { bytes: shards > 1 ? Math.floor(bytes / shards) : bytes, sharded: shards > 1 };
    }),
  );
  if (!check.sharding) return { bytes: sizes.reduce((n, s) => n + s.bytes, 0), unsharded: true };
  return {
    bytes: Math.max(0, ...sizes.map((s) => s.bytes)),
    unsharded: sizes.every((s) => !s.sharded),
  };
}

function tooLarge(template: string, bytes: number, limit: number): ParamError {
  const [query, max] = [humanizeIBytes(bytes), humanizeIBytes(limit)];
  return new ParamError(template.replace('%s', query).replace('%s', max));
}

/** Loki's `HasFilter`: a label filter, or a line filter other than `|= ""` / `|~ ""`. */
export function hasFilter(expr: LogSelectorExpr): boolean {
  return expr.stages.some(
    (s) =>
      s.kind === 'LabelFilterStage' ||
      (s.kind === 'LineFilter' &&
        !((s.op === '|=' || s.op === '|~') && s.values.every((v) => v.value === ''))),
  );
}

/** Throws Loki's 400 when a sub-query of the query would read more than the limit. */
export async function checkQuerierBytes(check: QuerierSizeCheck): Promise<void> {
  if (check.limit <= 0 || check.parts.length === 0) return;
  if (!check.sharding && check.expr.kind === 'LogSelectorExpr' && !hasFilter(check.expr)) return;
  // A split reads a part of the whole query's range: within the limit as a whole, always within.
  if ((await check.wholeBytes()) <= check.limit) return;
  for (let i = 0; i < check.splits.length; i += CONCURRENT_INDEX_REQUESTS) {
    const batch = check.splits.slice(i, i + CONCURRENT_INDEX_REQUESTS);
    const sizes = await Promise.all(batch.map((range) => splitSize(check, range)));
    const over = sizes.find((s) => s.bytes > check.limit);
    if (over === undefined) continue;
    const template = !check.sharding
      ? QUERIER_TOO_MANY_BYTES
      : over.unsharded
        ? UNSHARDABLE_TOO_MANY_BYTES
        : SHARD_TOO_MANY_BYTES;
    throw tooLarge(template, over.bytes, check.limit);
  }
}
