// Which members own a key, and how many of them may fail: dskit's Ring (ring.Get,
// GetReplicationSetForOperation) and DefaultReplicationStrategy over one snapshot of a ring.

import { extendsReplicaSet, isInstanceHealthy } from './instance-health';
import { RingError } from './ring-error';
import type {
  InstanceDesc,
  ReplicationRing,
  ReplicationSet,
  RingDesc,
  RingOperation,
} from './types';

const TOKEN_SPACE = 0x1_0000_0000;

export interface RingOptions {
  /** Copies of each stream (Loki's `replication_factor`, default 3). */
  readonly replicationFactor: number;
  /** A member whose heartbeat is older is unhealthy; 0 = heartbeats never expire. */
  readonly heartbeatTimeoutMs: number;
  /** Place the copies of a key in distinct zones (`zone_awareness_enabled`). */
  readonly zoneAwarenessEnabled?: boolean;
  /** The clock health is judged by, unix milliseconds. */
  readonly now?: () => number;
}

/** Every member's tokens in one ascending list, each with its owner. */
interface TokenTable {
  readonly tokens: Uint32Array;
  readonly owners: readonly string[];
}

/**
 * One snapshot of a ring. Token lookups are precomputed; health is judged at call time, so a
 * snapshot kept between KV updates still sees heartbeats expire.
 */
export class Ring implements ReplicationRing {
  private readonly byId: ReadonlyMap<string, InstanceDesc>;
  private readonly table: TokenTable;
  /** Zones of the members that hold tokens. */
  private readonly zones: ReadonlySet<string>;
  private readonly now: () => number;
  private ownershipCache: Map<string, number> | undefined;

  constructor(
    readonly desc: RingDesc,
    private readonly options: RingOptions,
  ) {
    if (!(options.replicationFactor > 0)) {
      throw new Error(`ReplicationFactor must be greater than zero: ${options.replicationFactor}`);
    }
    this.now = options.now ?? Date.now;
    const sorted = Object.values(desc.instances).sort((a, b) => compare(a.id, b.id));
    this.byId = new Map(sorted.map((i) => [i.id, i]));
    this.table = tokenTable(sorted);
    this.zones = new Set(sorted.filter((i) => i.tokens.length > 0).map((i) => i.zone));
  }

  get replicationFactor(): number {
    return this.options.replicationFactor;
  }

  /** Every member, sorted by id. */
  instances(): InstanceDesc[] {
    return [...this.byId.values()];
  }

  instance(id: string): InstanceDesc | undefined {
    return this.byId.get(id);
  }

  /**
   * Every member healthy for `op`, however many are not (dskit's GetAllHealthy: Loki's pattern
   * querier asks these, and tolerates no error among them); throws only for an empty ring.
   */
  allHealthy(op: RingOperation): InstanceDesc[] {
    if (this.byId.size === 0) throw new RingError('empty ring');
    return this.instances().filter((i) => this.isHealthy(i, op));
  }

  isHealthy(instance: InstanceDesc, op: RingOperation): boolean {
    return isInstanceHealthy(instance, op, this.now(), this.options.heartbeatTimeoutMs);
  }

  /** The members healthy for `op`, sorted by id. */
  healthyInstances(op: RingOperation): InstanceDesc[] {
    const now = this.now();
    return this.instances().filter((i) =>
      isInstanceHealthy(i, op, now, this.options.heartbeatTimeoutMs),
    );
  }

  /** How many members are healthy for `op` (distributors divide the global rate limit by it). */
  healthyCount(op: RingOperation): number {
    return this.healthyInstances(op).length;
  }

  /** The replicas a write of `token` goes to. */
  writeSet(token: number): ReplicationSet {
    return this.get(token, 'write');
  }

  /**
   * The replicas owning `token` for `op` (dskit's Ring.Get): walking clockwise from the first
   * token after `token`, RF distinct members (in distinct zones when zone-aware), one more for
   * each member the operation skips by state; then the unhealthy are dropped and a quorum of
   * the set must remain.
   */
  get(token: number, op: RingOperation): ReplicationSet {
    if (this.table.tokens.length === 0) throw new RingError('empty ring');
    return this.filter(this.replicasOf(token >>> 0, op), op);
  }

  /**
   * The set a read asks: every healthy member (dskit's GetReplicationSetForOperation). Without
   * zone awareness a read tolerates RF/2 failures among all members. With it, a zone with a
   * failed member is left out entirely and `maxUnavailableZones` more zones may fail; then
   * `maxErrors` is 0 and a client that does not track zones treats any failure as fatal.
   */
  readSet(): ReplicationSet {
    if (this.table.tokens.length === 0) throw new RingError('empty ring');
    const rf = this.options.replicationFactor;
    const now = this.now();
    const all = this.instances();
    const healthy: InstanceDesc[] = [];
    const failedZones = new Set<string>();
    for (const i of all) {
      if (isInstanceHealthy(i, 'read', now, this.options.heartbeatTimeoutMs)) healthy.push(i);
      else failedZones.add(i.zone);
    }

    if (this.options.zoneAwarenessEnabled) {
      const replicatedZones = Math.min(this.zones.size, rf);
      const maxUnavailableZones = Math.floor(replicatedZones / 2);
      if (failedZones.size > maxUnavailableZones) throw tooManyUnhealthy();
      return {
        instances: healthy.filter((i) => !failedZones.has(i.zone)),
        maxErrors: 0,
        maxUnavailableZones: maxUnavailableZones - failedZones.size,
      };
    }

    // At least RF - RF/2 must answer, however small the ring.
    const required = Math.max(all.length, rf) - Math.floor(rf / 2);
    if (healthy.length < required) throw tooManyUnhealthy();
    return { instances: healthy, maxErrors: healthy.length - required };
  }

  /**
   * Each member's share of the token space, 0..1: the ranges ending at its tokens. As dskit's
   * ring page, ranges are measured between tokens of the same zone, so each zone's members sum
   * to 1.
   */
  ownership(): Map<string, number> {
    this.ownershipCache ??= ownershipOf(this.instances());
    return new Map(this.ownershipCache);
  }

  private replicasOf(key: number, op: RingOperation): InstanceDesc[] {
    const { tokens, owners } = this.table;
    const zoneAware = this.options.zoneAwarenessEnabled === true;
    let wanted = this.options.replicationFactor;
    const hosts = new Set<string>();
    const zones = new Set<string>();
    const found: InstanceDesc[] = [];
    const maxInstances = this.byId.size;
    let i = firstTokenAfter(tokens, key);
    for (
      let steps = 0;
      hosts.size < Math.min(maxInstances, wanted) &&
      zones.size < this.zones.size &&
      steps < tokens.length;
      steps++, i = (i + 1) % tokens.length
    ) {
      const id = owners[i];
      if (hosts.has(id)) continue;
      const instance = this.byId.get(id) as InstanceDesc;
      // Members without a zone are not subject to zone awareness.
      const zoned = zoneAware && instance.zone !== '';
      if (zoned && zones.has(instance.zone)) continue;
      hosts.add(id);
      found.push(instance);
      if (extendsReplicaSet(op, instance.state)) wanted++;
      // A skipped member's zone stays open: its extra replica belongs in the same zone.
      else if (zoned) zones.add(instance.zone);
    }
    return found;
  }

  /** dskit's DefaultReplicationStrategy.Filter. */
  private filter(replicas: InstanceDesc[], op: RingOperation): ReplicationSet {
    // A set extended past joining/leaving members needs a quorum of its actual size.
    const size = Math.max(replicas.length, this.options.replicationFactor);
    const minSuccess = Math.floor(size / 2) + 1;
    const now = this.now();
    const healthy: InstanceDesc[] = [];
    const unhealthy: string[] = [];
    for (const r of replicas) {
      if (isInstanceHealthy(r, op, now, this.options.heartbeatTimeoutMs)) healthy.push(r);
      else unhealthy.push(r.addr);
    }
    if (healthy.length < minSuccess) {
      const across = this.options.zoneAwarenessEnabled
        ? ' across different availability zones'
        : '';
      const which = unhealthy.length > 0 ? ` - unhealthy instances: ${unhealthy.join(',')}` : '';
      throw new RingError(
        `at least ${minSuccess} live replicas required${across}, could only find ${healthy.length}${which}`,
      );
    }
    return { instances: healthy, maxErrors: healthy.length - minSuccess };
  }
}

function tooManyUnhealthy(): RingError {
  return new RingError('too many unhealthy instances in the ring');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * All tokens ascending with their owners. A token claimed twice goes to the lower id (dskit's
 * conflict rule), so the table never has duplicates.
 */
function tokenTable(instances: readonly InstanceDesc[]): TokenTable {
  const pairs: Array<[number, string]> = [];
  for (const i of instances) for (const t of i.tokens) pairs.push([t >>> 0, i.id]);
  pairs.sort((a, b) => a[0] - b[0] || compare(a[1], b[1]));
  const unique = pairs.filter((p, n) => n === 0 || p[0] !== pairs[n - 1][0]);
  return { tokens: Uint32Array.from(unique, (p) => p[0]), owners: unique.map((p) => p[1]) };
}

/** Index of the first token > key, wrapping to 0 past the last (dskit's searchToken). */
function firstTokenAfter(tokens: Uint32Array, key: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo === tokens.length ? 0 : lo;
}

/** dskit's Desc.CountTokens, as fractions of the token space. */
function ownershipOf(instances: readonly InstanceDesc[]): Map<string, number> {
  const owned = new Map<string, number>(instances.map((i) => [i.id, 0]));
  const byZone = new Map<string, InstanceDesc[]>();
  for (const i of instances) byZone.set(i.zone, [...(byZone.get(i.zone) ?? []), i]);
  for (const members of byZone.values()) {
    const { tokens, owners } = tokenTable(members);
    for (let n = 0; n < tokens.length; n++) {
      const prev = tokens[n === 0 ? tokens.length - 1 : n - 1];
      // The range (prev, token]; a lone token owns the whole ring.
      const distance = prev < tokens[n] ? tokens[n] - prev : TOKEN_SPACE - prev + tokens[n];
      owned.set(owners[n], (owned.get(owners[n]) ?? 0) + distance / TOKEN_SPACE);
    }
  }
  return owned;
}
