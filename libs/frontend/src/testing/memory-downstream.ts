/** A downstream over an in-memory source, for tests: each sub-query runs `runQuery` on its shard. */
import { inShard } from '@logsvc/api';
import { type LogSource, runQuery } from '@logsvc/logql';
import type { Downstream, SubQuery } from '../downstream';

export function shardedSource(source: LogSource, shard: SubQuery['shard']): LogSource {
  if (shard === undefined) return source;
  return {
    select: async (params) => (await source.select(params)).filter((s) => inShard(s.labels, shard)),
  };
}

export function memoryDownstream(source: LogSource, sent: SubQuery[] = []): Downstream {
  return {
    async run(sub, { signal }) {
      sent.push(sub);
      const { result, stats } = await runQuery({
        query: sub.query,
        kind: sub.kind,
        startNs: sub.startNs,
        endNs: sub.endNs,
        stepMs: Number(sub.stepNs) / 1e6,
        intervalMs: Number(sub.intervalNs) / 1e6,
        limit: sub.limit,
        direction: sub.direction,
        tenants: sub.tenants.length === 1 ? sub.tenants[0]! : sub.tenants,
        source: shardedSource(source, sub.shard),
        signal,
        ...(sub.categorizeLabels === undefined ? {} : { categorizeLabels: sub.categorizeLabels }),
      });
      return { result, stats };
    },
  };
}
