import type { Labels, Matcher, PushRequest, ShardRef } from '@logsvc/api';
import type { Direction } from '@logsvc/chunk';
import { LogsvcError } from '@logsvc/errors';
import type { Ingester, LabelQuery, PushOutcome } from './ingester';
import {
  type IngesterMemory,
  type MemorySelect,
  type MemorySnapshot,
  UNREACHED,
} from './memory-snapshot';
import type { IngesterQueryStats, StreamQueryResult, TimeRange } from './query';
import { ADMIT_ALL, type StreamAdmission, type StreamAdmissionSource } from './stream-admission';
import { TailHub, type TailListener, type TailSubscription } from './tail-hub';

/** What a querier asks ingesters for: one tenant's matching streams in `[fromNs, throughNs)`. */
export interface IngesterSelect {
  readonly matchers: readonly Matcher[];
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly direction: Direction;
  /** Only entries whose line contains these bytes (the query's line prefilter). */
  readonly lineContains?: Buffer;
  /**
   * Without `lineContains`: only entries whose line contains one of these (`|~ "a|b"`). The
   * in-process ingester and its snapshots search for them; ingesters over gRPC do not (they
   * send every entry, and the query's own filter decides).
   */
  readonly lineContainsAny?: readonly Buffer[];
  /** Also give each stream's chunks in parts (`StreamQueryResult.chunks`), blocks encoded. */
  readonly split?: boolean;
  /**
   * The reader keeps no line past its cursor's next entry (`CursorOptions.transientLines`):
   * the in-process ingester and its snapshots decompress blocks into reused buffers then;
   * ingesters over gRPC copy every entry onto the wire whatever it says.
   */
  readonly transientLines?: boolean;
  /** Only the streams of this query shard. */
  readonly shard?: ShardRef;
}

/** The part of `IngesterClient` queries read entries through. */
export type IngesterQueryClient = Pick<IngesterClient, 'query'>;

/** What a query read from ingesters: their counters, and how many ingesters answered. */
export type IngesterReadStats = IngesterQueryStats & { ingestersReached: number };

/** One stream's uncompressed line bytes in a range (for `index/volume`). */
export interface StreamVolume {
  readonly labels: Labels;
  readonly bytes: number;
}

/**
 * How distributors and queriers reach ingesters, whatever runs them: the in-process ingester of
 * the single binary (`LocalIngesterClient`), or, in a cluster, ingesters over gRPC. Every call is
 * asynchronous so both fit; errors are LogsvcErrors (`unavailable` when no ingester can answer).
 *
 * Metric queries read entries through `query` and extract samples in the querier.
 */
export interface IngesterClient {
  /** Stores a push; resolves once it is durable, with per-stream refusals. */
  push(tenant: string, request: PushRequest): Promise<PushOutcome>;
  /** Entries of matching streams, per stream; `stats` gathers what was read. */
  query(
    tenant: string,
    select: IngesterSelect,
    stats?: IngesterReadStats,
  ): Promise<StreamQueryResult[]>;
  labelNames(tenant: string, query: LabelQuery): Promise<string[]>;
  labelValues(tenant: string, name: string, query: LabelQuery): Promise<string[]>;
  /** Label sets of streams with data in range matching any matcher list (all when none). */
  series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]>;
  /** Line bytes per matching stream with data in `[fromNs, throughNs]` (inclusive end). */
  volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]>;
  /**
   * Live entries of the tenant's streams that the matchers select, as pushes store them (once
   * durable), each entry once. Resolves once the subscription is in place on the ingesters, so
   * nothing pushed after that is missed. `onEnd` hears if a remote ingester ends it by itself
   * (never after `close`); the in-process ingester never does.
   */
  tail(
    tenant: string,
    matchers: readonly Matcher[],
    onEntries: TailListener,
    onEnd?: (err: Error) => void,
  ): Promise<TailSubscription>;
  /**
   * The tenant's open tails as the ingesters count them (Loki's `TailersCount`): every tail a
   * querier opens subscribes on each ingester, so the largest count over the ingesters is the
   * tenant's open tails across all queriers.
   */
  tailersCount(tenant: string): Promise<number>;
  /**
   * The tenants with streams in the ingesters' memory (logsvc's own, for the admin UI's tenant
   * picker; Loki's API has no such call): the union over every ingester reached.
   */
  tenants(): Promise<string[]>;
}

/** No ingester can take a push (none runs in this process, or none is reachable). */
export class NoIngesterError extends LogsvcError {
  constructor(message = 'no ingester is running in this process to accept the push') {
    super('unavailable', message);
  }
}

/**
 * The ingester of this process, reached by direct calls: given at construction, it answers
 * while that ingester serves (from the end of its start, the WAL replayed, until it stopped);
 * outside that, and without one, pushes are refused as `unavailable` and reads find nothing,
 * as a querier that reaches no ingester would.
 */
export class LocalIngesterClient implements IngesterClient, StreamAdmissionSource, IngesterMemory {
  /** Live entries of the ingester's appends, for `tail`. */
  readonly tails = new TailHub();

  constructor(private readonly source?: Ingester) {
    source?.onAppend(this.tails.onAppend, this.tails.listensTo);
  }

  /** The ingester, while it serves. */
  get ingester(): Ingester | undefined {
    return this.source?.servesReads ? this.source : undefined;
  }

  private get current(): Ingester | undefined {
    return this.ingester;
  }

  async tail(
    tenant: string,
    matchers: readonly Matcher[],
    onEntries: TailListener,
  ): Promise<TailSubscription> {
    return this.tails.subscribe(tenant, matchers, onEntries);
  }

  async tailersCount(tenant: string): Promise<number> {
    return this.tails.count(tenant);
  }

  async tenants(): Promise<string[]> {
    return this.current?.tenants() ?? [];
  }

  push(tenant: string, request: PushRequest): Promise<PushOutcome> {
    const ingester = this.current;
    if (!ingester) return Promise.reject(new NoIngesterError());
    return ingester.push(tenant, request);
  }

  /** The ingester's stream limits for a push of `tenant`; admit-all while it does not serve. */
  async streamAdmission(tenant: string): Promise<StreamAdmission> {
    return this.current?.streamAdmission(tenant) ?? ADMIT_ALL;
  }

  async query(
    tenant: string,
    select: IngesterSelect,
    stats?: IngesterReadStats,
  ): Promise<StreamQueryResult[]> {
    const ingester = this.current;
    if (!ingester) return [];
    if (stats) stats.ingestersReached++;
    const { matchers, fromNs, throughNs, direction } = select;
    // The select is its own read options (prefilters, split, shard).
    return ingester.query(tenant, matchers, fromNs, throughNs, direction, stats, select);
  }

  /**
   * The attached ingester's chunks a query worker thread reads for this select (see
   * `Ingester.snapshot`); unreached when none is attached, as `query` then reaches none.
   */
  snapshot(tenant: string, select: MemorySelect): MemorySnapshot {
    return this.current?.snapshot(tenant, select) ?? UNREACHED;
  }

  /** Uncompressed bytes the attached ingester holds of matching streams in the range. */
  bytesInMemory(tenant: string, matchers: readonly Matcher[], range: TimeRange): number {
    return this.current?.bytesInMemory(tenant, matchers, range) ?? 0;
  }

  async labelNames(tenant: string, query: LabelQuery): Promise<string[]> {
    return this.current?.labelNames(tenant, query) ?? [];
  }

  async labelValues(tenant: string, name: string, query: LabelQuery): Promise<string[]> {
    return this.current?.labelValues(tenant, name, query) ?? [];
  }

  async series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    return this.current?.series(tenant, matchersList, fromNs, throughNs) ?? [];
  }

  async volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    const ingester = this.current;
    if (!ingester) return [];
    const out: StreamVolume[] = [];
    for (const r of ingester.query(tenant, matchers, fromNs, throughNs + 1n, 'forward')) {
      let bytes = 0;
      while (r.entries.next()) bytes += r.entries.line.length;
      if (bytes > 0) out.push({ labels: r.labels, bytes });
    }
    return out;
  }
}
