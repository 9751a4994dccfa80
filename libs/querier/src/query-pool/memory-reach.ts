import type { Matcher } from '@logsvc/api';
import { type Expr, logSelectors, parseExpr, rangeReach, TENANT_ID_LABEL } from '@logsvc/logql';

/** The streams and time range a query reads at most, to judge how much memory it reads. */
export interface QueryReach {
  /** A log query (no range aggregation): it reads memory lazily, as far as its limit takes it. */
  readonly isLogQuery: boolean;
  /** One matcher list per log selector (`__tenant_id__` matchers left out). */
  readonly selectors: readonly (readonly Matcher[])[];
  readonly fromNs: bigint;
  readonly throughNs: bigint;
}

/**
 * What a query over `[startNs, endNs]` reads: its selectors, over the range widened by its
 * range vectors and offsets. Null when it does not parse (the caller answers it as usual).
 */
export function queryReach(query: string, startNs: bigint, endNs: bigint): QueryReach | null {
  let expr: Expr;
  try {
    expr = parseExpr(query);
  } catch {
    return null;
  }
  const { backNs, aheadNs } = rangeReach(expr);
  const selectors = logSelectors(expr).map((e) =>
    e.selector.matchers
      .filter((m) => m.name !== TENANT_ID_LABEL)
      .map((m) => ({ type: m.type, name: m.name, value: m.value })),
  );
  return {
    isLogQuery: expr.kind === 'LogSelectorExpr',
    selectors,
    fromNs: startNs - BigInt(backNs),
    throughNs: endNs + 1n + BigInt(aheadNs),
  };
}
