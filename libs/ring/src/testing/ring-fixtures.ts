// Building rings for tests: members with chosen tokens, states and heartbeats.

import type { InstanceDesc, InstanceState, RingDesc } from '../types';

export interface MemberSpec {
  readonly tokens: readonly number[];
  readonly state?: InstanceState;
  readonly zone?: string;
  readonly heartbeatMs?: number;
  readonly addr?: string;
}

/** A member `id` at address `<id>:9095`, ACTIVE with a heartbeat at 0 unless told otherwise. */
export function member(id: string, spec: MemberSpec): InstanceDesc {
  return {
    id,
    addr: spec.addr ?? `${id}:9095`,
    zone: spec.zone ?? '',
    state: spec.state ?? 'ACTIVE',
    tokens: [...spec.tokens].sort((a, b) => a - b),
    heartbeatMs: spec.heartbeatMs ?? 0,
    registeredMs: 0,
  };
}

export function ringOf(members: Record<string, MemberSpec>): RingDesc {
  return {
    instances: Object.fromEntries(Object.entries(members).map(([id, s]) => [id, member(id, s)])),
  };
}
