import { labelsToString, type PushStream } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { tokenFor, type ReplicationRing, type ReplicationSet } from '@logsvc/ring';

/**
 * Streams of one push that live on the same replicas. Every replica of a placement is sent the
 * same streams, so any one replica's answer is a complete answer for all of them.
 */
export interface Placement {
  readonly replicas: ReplicationSet;
  readonly streams: PushStream[];
}

/**
 * The push's streams (those with entries) grouped by their replicas: each stream's ring token
 * is `tokenFor(tenant, canonical label text)`, its replicas the token's write set. Placements
 * come in the order of their first stream in the request. Rejects as `unavailable` when the
 * ring cannot give a stream enough healthy replicas (with the ring's own words).
 */
export function placeStreams(
  tenant: string,
  streams: readonly PushStream[],
  ring: ReplicationRing,
): Placement[] {
  const byReplicas = new Map<string, Placement>();
  for (const stream of streams) {
    if (stream.entries.length === 0) continue; // nothing to store, as the ingester skips it
    const labelsText = stream.labelsText ?? labelsToString(stream.labels);
    const replicas = writeSetOf(ring, tokenFor(tenant, labelsText));
    const key = placementKey(replicas);
    let placement = byReplicas.get(key);
    if (placement === undefined) {
      placement = { replicas, streams: [] };
      byReplicas.set(key, placement);
    }
    // The text rides along so an in-process ingester does not build it again.
    placement.streams.push(stream.labelsText === undefined ? { ...stream, labelsText } : stream);
  }
  return [...byReplicas.values()];
}

function writeSetOf(ring: ReplicationRing, token: number): ReplicationSet {
  let replicas: ReplicationSet;
  try {
    replicas = ring.writeSet(token);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    throw new LogsvcError('unavailable', text, { cause: err });
  }
  if (replicas.instances.length === 0) {
    throw new LogsvcError('unavailable', 'empty ring: no ingester can take the push');
  }
  return replicas;
}

/** The same members (in any order) and the same error budget make the same placement. */
function placementKey(replicas: ReplicationSet): string {
  const ids = replicas.instances.map((i) => i.id).sort();
  return `${replicas.maxErrors}\u0000${ids.join('\u0000')}`;
}
