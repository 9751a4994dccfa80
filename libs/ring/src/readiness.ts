// Why a ring member is not ready yet (dskit's Desc.IsReady and InstanceDesc.IsReady): the texts
// Loki's /ready answers with.

import { isHeartbeatHealthy } from './instance-health';
import type { InstanceDesc, RingDesc } from './types';

/** Null when the member is ACTIVE with a live heartbeat; otherwise why not. */
export function instanceNotReady(
  instance: InstanceDesc,
  nowMs: number,
  heartbeatTimeoutMs: number,
): string | null {
  if (!isHeartbeatHealthy(instance, nowMs, heartbeatTimeoutMs)) {
    return `instance ${instance.addr} past heartbeat timeout`;
  }
  if (instance.state !== 'ACTIVE') return `instance ${instance.addr} in state ${instance.state}`;
  return null;
}

/** Null when every member is ready and the ring has tokens; otherwise the first problem. */
export function ringNotReady(
  desc: RingDesc,
  nowMs: number,
  heartbeatTimeoutMs: number,
): string | null {
  let tokens = 0;
  const ids = Object.keys(desc.instances).sort();
  for (const id of ids) {
    const instance = desc.instances[id];
    const problem = instanceNotReady(instance, nowMs, heartbeatTimeoutMs);
    if (problem !== null) return problem;
    tokens += instance.tokens.length;
  }
  return tokens === 0 ? 'no tokens in ring' : null;
}
