// Whether a ring member can serve an operation (dskit's ring.Write / ring.Read operations and
// InstanceDesc.IsHealthy).

import type { InstanceDesc, InstanceState, RingOperation } from './types';

/** The states each operation sends requests to. */
const HEALTHY_STATES: Record<RingOperation, ReadonlySet<InstanceState>> = {
  write: new Set(['ACTIVE']),
  // Reads also go to PENDING and LEAVING members: a leaving ingester still holds data until it
  // has flushed.
  read: new Set(['ACTIVE', 'PENDING', 'LEAVING']),
};

/**
 * Whether including a member in this state grows the replica set by one: a write skips members
 * that are not ACTIVE but still needs RF copies, so it takes one more member; a read extends
 * the same way (except past LEAVING members, which it reads) to find the data those writes put
 * on the extra member.
 */
export function extendsReplicaSet(op: RingOperation, state: InstanceState): boolean {
  return op === 'write' ? state !== 'ACTIVE' : state !== 'ACTIVE' && state !== 'LEAVING';
}

/** Heartbeat younger than the timeout (inclusive); a timeout of 0 never expires. */
export function isHeartbeatHealthy(
  instance: InstanceDesc,
  nowMs: number,
  heartbeatTimeoutMs: number,
): boolean {
  return heartbeatTimeoutMs === 0 || nowMs - instance.heartbeatMs <= heartbeatTimeoutMs;
}

/** A live heartbeat and a state the operation uses. */
export function isInstanceHealthy(
  instance: InstanceDesc,
  op: RingOperation,
  nowMs: number,
  heartbeatTimeoutMs: number,
): boolean {
  return (
    HEALTHY_STATES[op].has(instance.state) &&
    isHeartbeatHealthy(instance, nowMs, heartbeatTimeoutMs)
  );
}
