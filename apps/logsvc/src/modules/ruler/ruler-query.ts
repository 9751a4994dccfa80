import { type QueryFn, type Sample } from '@logsvc/ruler';
import type { Querier } from '@logsvc/querier';
import { labelsToRecord } from '@logsvc/api';
import { parseExpr } from '@logsvc/logql';

/**
 * The ruler's own Querier (rules run in `backend`, without a querier component); a token of its
 * own so that it never stands in for the querier component's `Querier`.
 */
export const RULER_QUERIER = Symbol('logsvc.rulerQuerier');

const NS_PER_MS = 1_000_000n;

/**
 * Loki's ruler query function: an instant LogQL query over the tenant's ingesters and store;
 * a scalar becomes one sample without labels, a log query is refused.
 */
export function querierQueryFn(querier: Querier, timeoutMs: number): QueryFn {
  return async (tenant, expr, tsMs) => {
    // Loki's engine answers a log query with streams, which its ruler then refuses.
    if (parseExpr(expr).kind === 'LogSelectorExpr') {
      throw new Error('rule result is not a vector or scalar');
    }
    const at = BigInt(tsMs) * NS_PER_MS;
    let result;
    try {
      ({ result } = await querier.query({
        kind: 'instant',
        query: expr,
        startNs: at,
        endNs: at,
        stepNs: 0n,
        intervalNs: 0n,
        limit: 100,
        direction: 'backward',
        tenants: [tenant],
        categorizeLabels: false,
        clientSignal: AbortSignal.timeout(timeoutMs),
      }));
    } catch (err) {
      throw new Error(
        `rule evaluation failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    switch (result.type) {
      case 'vector':
        return result.samples.map((s): Sample => ({
          labels: labelsToRecord(s.labels),
          value: s.value,
        }));
      case 'scalar':
        return [{ labels: {}, value: result.value }];
      default:
        throw new Error('rule result is not a vector or scalar');
    }
  };
}
