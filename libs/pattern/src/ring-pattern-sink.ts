import { labelsToString, type PushStream } from '@logsvc/api';
import { tokenFor, type InstanceDesc, type ReplicationRing } from '@logsvc/ring';
import type { PatternIngesterClient } from './pattern-client';
import type { PatternSink, PatternTeeCounters } from './pattern-tee';

export interface RingPatternSinkOptions {
  /** The pattern ring as it is now (replication factor 1). */
  readonly ring: () => ReplicationRing;
  readonly clientFor: (instance: InstanceDesc) => PatternIngesterClient;
  readonly counters?: PatternTeeCounters;
}

/**
 * Sends each stream to the pattern ingester its token falls to (Loki's tee spreads streams by
 * `TokenFor(tenant, labels)` on the pattern ring), one push per ingester. A stream with no
 * healthy owner is dropped; a failed push rejects after the others are sent.
 */
export function ringPatternSink(options: RingPatternSinkOptions): PatternSink {
  return async (tenant, streams) => {
    const ring = options.ring();
    const byInstance = new Map<string, { instance: InstanceDesc; streams: PushStream[] }>();
    for (const stream of streams) {
      const labelsText = stream.labelsText ?? labelsToString(stream.labels);
      let owner: InstanceDesc | undefined;
      try {
        owner = ring.writeSet(tokenFor(tenant, labelsText)).instances[0];
      } catch {
        owner = undefined;
      }
      if (owner === undefined) {
        options.counters?.streams('dropped', 1);
        continue;
      }
      options.counters?.streams('batched', 1);
      let group = byInstance.get(owner.id);
      if (group === undefined) byInstance.set(owner.id, (group = { instance: owner, streams: [] }));
      group.streams.push(stream);
    }
    const results = await Promise.allSettled(
      [...byInstance.values()].map(async ({ instance, streams }) => {
        try {
          await options.clientFor(instance).push(tenant, streams);
          options.counters?.appends(instance.addr, 'success');
        } catch (err) {
          options.counters?.appends(instance.addr, 'fail');
          throw err;
        }
      }),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
