// The ring's data model, as Loki's (dskit ring.Desc): instances with tokens, a state and a
// heartbeat, shared by every member through a KV store.

/** Lifecycle states of a ring member (dskit's InstanceState). */
export const INSTANCE_STATES = ['PENDING', 'JOINING', 'ACTIVE', 'LEAVING'] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

/** One member of a ring, as stored in the KV store. */
export interface InstanceDesc {
  readonly id: string;
  /** `host:port` of its gRPC server. */
  readonly addr: string;
  /** Availability zone; '' when zone awareness is off. */
  readonly zone: string;
  readonly state: InstanceState;
  /** Owned tokens, sorted ascending, each a uint32. */
  readonly tokens: readonly number[];
  /** Last heartbeat, unix milliseconds. */
  readonly heartbeatMs: number;
  /** When it joined the ring, unix milliseconds. */
  readonly registeredMs: number;
}

/** The whole ring: members by id. */
export interface RingDesc {
  readonly instances: Readonly<Record<string, InstanceDesc>>;
}

export const EMPTY_RING: RingDesc = { instances: {} };

/** What an operation needs from the ring. */
export type RingOperation = 'write' | 'read';

/**
 * The instances an operation goes to, and how many of them may fail while it still succeeds
 * (Loki's ReplicationSet: quorum = instances.length - maxErrors).
 */
export interface ReplicationSet {
  readonly instances: readonly InstanceDesc[];
  readonly maxErrors: number;
  /**
   * Zone-aware reads only (then `maxErrors` is 0): how many zones may fail entirely, all of
   * their members' errors together, while the read still succeeds (dskit's
   * ReplicationSet.MaxUnavailableZones).
   */
  readonly maxUnavailableZones?: number;
}

/**
 * What a ring-aware client (distributor → ingesters, querier → ingesters) needs: the replicas
 * that own a token, and the set every read goes to. Implemented by `Ring` over a ring snapshot.
 */
export interface ReplicationRing {
  /** The RF healthy instances owning `token` (for writes), with the errors a write may absorb. */
  writeSet(token: number): ReplicationSet;
  /** All healthy instances a read must ask, with the errors a read may absorb. */
  readSet(): ReplicationSet;
}

/** JSON codec of a RingDesc as stored under its KV key. */
export function encodeRing(desc: RingDesc): Buffer {
  return Buffer.from(JSON.stringify(desc));
}

export function decodeRing(value: Buffer | null): RingDesc {
  if (value === null || value.length === 0) return EMPTY_RING;
  const parsed = JSON.parse(value.toString('utf8')) as Partial<RingDesc> | null;
  return parsed && typeof parsed.instances === 'object' && parsed.instances !== null
    ? { instances: parsed.instances }
    : EMPTY_RING;
}
