import { labelsToString, type PushStream } from '@logsvc/api';
import { tokenFor, type InstanceDesc, type ReplicationRing } from '@logsvc/ring';
import type { PatternIngesterClient } from './pattern-client';
import type { PatternSink } from './pattern-tee';

export interface RingPatternSinkOptions {
  /** The pattern ring as it is now (replication factor 1). */
  readonly ring: () => ReplicationRing;
  readonly clientFor: (instance: InstanceDesc) => PatternIngesterClient;
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
      if (owner === undefined) continue;
      let group = byInstance.get(owner.id);
      if (group === undefined) byInstance.set(owner.id, (group = { instance: owner, streams: [] }));
      group.streams.push(stream);
    }
    const results = await Promise.allSettled(
      [...byInstance.values()].map((g) => options.clientFor(g.instance).push(tenant, g.streams)),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
