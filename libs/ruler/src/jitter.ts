// Loki's EvaluatorWithJitter: each query waits a fixed fraction of `max_jitter`, taken from a
// hash of the query, so evaluations spread out but keep a steady cadence.
import { sleep, type Clock } from './clock';
import { fnv32a } from './hash';
import type { QueryFn } from './sample';

export function jitterFor(query: string, maxJitterMs: number): number {
  if (maxJitterMs <= 0) return 0;
  return Math.floor((fnv32a(query) / 0xffffffff) * maxJitterMs);
}

export function withJitter(inner: QueryFn, maxJitterMs: number, clock: Clock): QueryFn {
  if (maxJitterMs <= 0) return inner;
  return async (tenant, expr, tsMs) => {
    const wait = jitterFor(expr, maxJitterMs);
    if (wait > 0) await sleep(clock, wait);
    return inner(tenant, expr, tsMs);
  };
}
