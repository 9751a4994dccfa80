import type { Labels, Matcher, PushRequest } from '@logsvc/api';
import {
  SILENT_LOGGER,
  type IngesterClient,
  type IngesterReadStats,
  type IngesterSelect,
  type LabelQuery,
  type PushOutcome,
  type StreamQueryResult,
  type StreamVolume,
  type TailListener,
  type TailSubscription,
} from '@logsvc/ingester';
import { LogsvcError } from '@logsvc/errors';
import type { InstanceDesc, ReplicationRing, ReplicationSet } from '@logsvc/ring';
import { placeStreams } from './placement';
import {
  messageOf,
  replicatePush,
  type IngesterClientFor,
  type ReplicaLogger,
} from './push-replication';
import { readFromReplicas } from './read-fanout';
import { RingTail } from './ring-tail';
import {
  addReadStats,
  maxVolumes,
  mergeStreamResults,
  newReadStats,
  sortedUnion,
  uniqueSeries,
} from './replica-merge';

export interface RingIngesterClientOptions {
  /** The ring as of now; asked once per call, so each call sees one snapshot. */
  readonly ring: () => ReplicationRing;
  /** The client of one ingester of the ring (e.g. a pooled gRPC client by address). */
  readonly clientFor: IngesterClientFor;
  readonly logger?: ReplicaLogger;
}

/**
 * A cluster of ingesters seen as one, for distributors and queriers: pushes go to each
 * stream's replicas on the ring and succeed on a quorum (Loki's distributor); reads ask every
 * healthy ingester and merge their answers, copies dropped (Loki's querier).
 */
export class RingIngesterClient implements IngesterClient {
  private readonly logger: ReplicaLogger;

  constructor(private readonly opts: RingIngesterClientOptions) {
    this.logger = opts.logger ?? SILENT_LOGGER;
  }

  /**
   * Stores the push on a quorum of each stream's replicas. Refused streams are reported once
   * and counts are one replica's (see `replicatePush`).
   */
  push(tenant: string, request: PushRequest): Promise<PushOutcome> {
    try {
      const placements = placeStreams(tenant, request.streams, this.opts.ring());
      return replicatePush(tenant, placements, this.opts.clientFor, this.logger);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async query(
    tenant: string,
    select: IngesterSelect,
    stats?: IngesterReadStats,
  ): Promise<StreamQueryResult[]> {
    const perReplica = withoutSplit(select);
    const answers = await this.readAll(tenant, 'query', async (client) => {
      const own = newReadStats();
      const results = await client.query(tenant, perReplica, own);
      return { results, own };
    });
    if (stats) for (const { own } of answers) addReadStats(stats, own);
    return mergeStreamResults(
      answers.map((a) => a.results),
      select.direction,
    );
  }

  async labelNames(tenant: string, query: LabelQuery): Promise<string[]> {
    return sortedUnion(
      await this.readAll(tenant, 'labelNames', (c) => c.labelNames(tenant, query)),
    );
  }

  async labelValues(tenant: string, name: string, query: LabelQuery): Promise<string[]> {
    return sortedUnion(
      await this.readAll(tenant, 'labelValues', (c) => c.labelValues(tenant, name, query)),
    );
  }

  async series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    return uniqueSeries(
      await this.readAll(tenant, 'series', (c) =>
        c.series(tenant, matchersList, fromNs, throughNs),
      ),
    );
  }

  async volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    return maxVolumes(
      await this.readAll(tenant, 'volume', (c) => c.volume(tenant, matchers, fromNs, throughNs)),
    );
  }

  /**
   * Tails every healthy ingester, each entry passed on once however many replicas send it
   * (`RingTail`). Never calls `onEnd`: broken ingester streams are re-opened.
   */
  async tail(
    tenant: string,
    matchers: readonly Matcher[],
    onEntries: TailListener,
  ): Promise<TailSubscription> {
    const tail = new RingTail(tenant, matchers, onEntries, {
      ring: this.opts.ring,
      clientFor: this.opts.clientFor,
      logger: this.logger,
    });
    await tail.start();
    return tail;
  }

  /**
   * The largest count of the tenant's tails over the healthy ingesters, within the read set's
   * error budget, as Loki's querier asks (`IngesterQuerier.TailersCount`): it too refuses when
   * no ingester is ACTIVE.
   */
  async tailersCount(tenant: string): Promise<number> {
    const replicas = this.readSet();
    if (!replicas.instances.some((i) => i.state === 'ACTIVE'))
      throw new LogsvcError('internal', 'no active ingester found');
    const counts = await this.readAll(
      tenant,
      'tailersCount',
      (c) => c.tailersCount(tenant),
      replicas,
    );
    return counts.reduce((max, n) => Math.max(max, n), 0);
  }

  /**
   * The union of the tenants in memory of every healthy ingester: a tenant may be on one
   * ingester only (its streams' replicas), so this waits for all rather than a quorum; one that
   * fails is skipped (and logged), and only when all fail does the call.
   */
  async tenants(): Promise<string[]> {
    const { instances } = this.readSet();
    const answers = await Promise.allSettled(
      instances.map((i) => this.opts.clientFor(i).tenants()),
    );
    const known = new Set<string>();
    let failure: unknown;
    for (const [k, a] of answers.entries()) {
      if (a.status === 'fulfilled') {
        for (const t of a.value) known.add(t);
        continue;
      }
      failure ??= a.reason;
      const { id, addr } = instances[k];
      this.logger.warn(
        { ingester: id, addr, err: messageOf(a.reason) },
        'tenants on ingester failed',
      );
    }
    if (answers.length > 0 && answers.every((a) => a.status === 'rejected')) throw failure;
    return [...known].sort();
  }

  /** The ring's read set; an empty or unhealthy ring is `unavailable`. */
  private readSet(): ReplicationSet {
    try {
      return this.opts.ring().readSet();
    } catch (err) {
      throw new LogsvcError('unavailable', messageOf(err), { cause: err });
    }
  }

  /** `read` on the ring's read set, tolerating its error budget (`readFromReplicas`). */
  private readAll<T>(
    tenant: string,
    what: string,
    read: (client: IngesterClient) => Promise<T>,
    set?: ReplicationSet,
  ): Promise<T[]> {
    let replicas: ReplicationSet;
    try {
      replicas = set ?? this.readSet();
    } catch (err) {
      return Promise.reject(err);
    }
    return readFromReplicas(
      replicas,
      (instance: InstanceDesc) => read(this.opts.clientFor(instance)),
      (instance, err) =>
        this.logger.warn(
          { tenant, ingester: instance.id, addr: instance.addr, err: messageOf(err) },
          `${what} on ingester failed`,
        ),
    );
  }
}

/** Chunks in parts are one ingester's view: merged replicas are read through `entries`. */
function withoutSplit(select: IngesterSelect): IngesterSelect {
  if (select.split === undefined) return select;
  const { matchers, fromNs, throughNs, direction, lineContains, shard } = select;
  return {
    matchers,
    fromNs,
    throughNs,
    direction,
    ...(lineContains === undefined ? {} : { lineContains }),
    ...(shard === undefined ? {} : { shard }),
  };
}
