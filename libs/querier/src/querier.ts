import { metadataRange, queryLimits } from './query-limits';
import type { Labels, Matcher } from '@logsvc/api';
import type { DeleteRequestRecord } from '@logsvc/compactor';
import type { Overrides } from '@logsvc/config';
import type { IngesterClient, IngesterMemory, StreamVolume } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import type { IndexStats } from '@logsvc/storage';
import type { StoreReader } from './store-reader';
import type { ChunkDecoder } from './chunk-decoder';
import { MetadataQuerier } from './metadata-querier';
import { QueryExecutor, type QueryRequest } from './query-executor';
import { QuerySources } from './query-sources';
import type { LineDeletions } from './deletion-source';
import { ReadWindow, type ReadWindowSettings } from './read-window';
import type { PoolQuery, SnapshotSource } from './query-pool/pool-query';
import { queryReach } from './query-pool/memory-reach';
import { type ChunkScanPool, scanPoolFor } from './scan-pool';
import {
  type AggregateBy,
  accumulateVolumes,
  planVolume,
  topVolumes,
  volumeBuckets,
} from './volume';
import { VolumesDisabledError } from './errors';
import {
  DetectedQueries,
  type DetectedFieldsRequest,
  type DetectedLabelsRequest,
} from './detected-queries';
import type { DetectedField } from './detected-fields';
import type { DetectedLabel } from './detected-labels';
import { Tailer, type TailerLimits } from './tail/tailer';
import { TailLimitError } from './tail/tail-errors';
import { TailSlots } from './tail/tail-slots';
import type { TailOutput, TailRequest } from './tail/tail-types';

/** An `index/volume` or `index/volume_range` request after its parameters are parsed. */
export interface VolumeRequest {
  readonly tenants: readonly string[];
  readonly matchers: readonly Matcher[];
  readonly targetLabels: readonly string[];
  readonly aggregateBy: AggregateBy;
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** 0 = one bucket for the whole range (`index/volume`). */
  readonly stepNs: bigint;
  /** Volume names kept per bucket, largest first. */
  readonly limit: number;
}

/** One bucket's volume of a name: bytes at the end of the bucket. */
export interface VolumeSample {
  readonly ns: bigint;
  readonly value: number;
}

export interface QuerierOptions {
  /** Flushed chunks and their index. */
  readonly store: StoreReader;
  /** The ingesters, for data not flushed yet (read only through this client). */
  readonly ingesters: IngesterClient;
  /** `querier.query_ingesters_within`, `query_store_only`, `query_ingester_only`. */
  readonly window: ReadWindowSettings;
  /** Per-tenant query limits. */
  readonly overrides: Overrides;
  /** The time now, in ns since the epoch (query_ingesters_within, max_query_lookback). */
  readonly now: () => bigint;
  /** `querier.scan_workers`: 0 = one worker per core, negative = none (all on the event loop). */
  readonly scanWorkers: number;
  /** `querier.tail_max_duration` in ms (0 = none); default one hour. */
  readonly tailMaxDurationMs?: number;
  /** How much a tail may hold for a slow client; defaults in `DEFAULT_TAILER_LIMITS`. */
  readonly tailLimits?: TailerLimits;
  /** Delete requests whose lines queries drop until the compactor has removed them. */
  readonly deletions?: LineDeletions;
  /** Whether query workers also run queries over the in-process ingester's data (`poolQuery`). */
  readonly poolMemory?: PoolMemorySettings;
  /**
   * The in-process ingester's memory (the single binary's), which `poolMemory` lets query
   * workers read; absent in a cluster, where ingesters are remote.
   */
  readonly memory?: IngesterMemory;
  /**
   * What decodes the store's chunks on this thread, with its block cache
   * (`querier.block_cache_mb`); default: the thread's `chunkDecoder`.
   */
  readonly decoder?: ChunkDecoder;
}

/** `querier.query_workers_ingester_data` and `query_workers_min_ingester_bytes`. */
export interface PoolMemorySettings {
  readonly enabled: boolean;
  /** Less uncompressed data in memory than this in a query's reach: it runs on the event loop. */
  readonly minBytes: number;
}

/**
 * The read path: LogQL queries under the tenants' query limits, label names and values,
 * series, index stats and stream volumes, over the ingesters (recent data) and the chunk store.
 * Owns the chunk scan worker pool; `close` ends it.
 */
export class Querier {
  private readonly pool: ChunkScanPool | null;
  private readonly executor: QueryExecutor;
  private readonly metadata: MetadataQuerier;
  private readonly overrides: Overrides;
  private readonly detected: DetectedQueries;
  private readonly tailSlots = new TailSlots();
  private readonly window: ReadWindow;
  /** The in-process ingester, when query workers may read its data (single binary). */
  private readonly local: IngesterMemory | null;
  /** Takes the snapshots query workers read memory through; null without `local`. */
  readonly snapshots: SnapshotSource | null;

  constructor(private readonly options: QuerierOptions) {
    this.overrides = options.overrides;
    const window = new ReadWindow(options.window, options.now);
    this.window = window;
    const local = options.poolMemory?.enabled === true ? (options.memory ?? null) : null;
    this.local = local;
    this.snapshots = local === null ? null : (tenant, select) => local.snapshot(tenant, select);
    this.pool = scanPoolFor(options.scanWorkers);
    const sources = new QuerySources(
      options.store,
      options.ingesters,
      window,
      this.pool,
      options.deletions ?? null,
      options.decoder,
    );
    this.executor = new QueryExecutor(sources, options.overrides, options.now);
    this.metadata = new MetadataQuerier(options.store, options.ingesters, window);
    this.detected = new DetectedQueries(
      this.executor,
      this.metadata,
      options.overrides,
      options.now,
    );
  }

  /** Runs a LogQL query; throws LogsvcErrors (bad LogQL, limits, timeout, cancel). */
  query(request: QueryRequest): Promise<RunQueryResult> {
    return this.executor.run(request);
  }

  /**
   * Whether a query reads the store alone, so a query worker answers it without memory
   * snapshots as this querier would: its whole range is older than `query_ingesters_within`, or
   * `query_store_only` is set. (Metric queries read up to `endNs` inclusive.)
   */
  canRunInPool(request: Pick<QueryRequest, 'startNs' | 'endNs'>): boolean {
    return this.window.storeOnly(request.startNs, request.endNs + 1n);
  }

  /**
   * The query as a QueryWorkerPool runs it (its tenants' limits and delete requests taken
   * now), or null when it stays on this thread. A metric query that needs the ingesters goes
   * to the pool only with the in-process ingester and `poolMemory` on, and when it reaches at
   * least `poolMemory.minBytes` in memory (a small one costs less here than a round trip); the
   * worker then reads memory through `snapshots`, within this querier's read window.
   */
  async poolQuery(request: QueryRequest): Promise<PoolQuery | null> {
    const storeOnly = this.canRunInPool(request);
    if (!storeOnly && !this.memoryPaysOff(request)) return null;
    const { clientSignal: _signal, ...rest } = request;
    const deletions = new Map<string, readonly DeleteRequestRecord[]>();
    const { deletions: source } = this.options;
    if (source !== undefined) {
      const lists = await Promise.all(request.tenants.map((t) => source.records(t)));
      request.tenants.forEach((t, i) => {
        if (lists[i].length > 0) deletions.set(t, lists[i]);
      });
    }
    return {
      ...rest,
      nowNs: this.options.now(),
      limits: new Map(request.tenants.map((t) => [t, this.overrides.forTenant(t)])),
      deletions,
      ...(storeOnly ? {} : { window: this.options.window }),
    };
  }

  /** Whether a worker should run this query over memory (see `poolQuery`). */
  private memoryPaysOff(request: QueryRequest): boolean {
    if (this.local === null) return false;
    const reach = queryReach(request.query, request.startNs, request.endNs);
    // A log query reads memory lazily here, often a few blocks for its limit; in a worker it
    // would need a copy of everything in range first.
    if (reach === null || reach.isLogQuery) return false;
    const minBytes = this.options.poolMemory?.minBytes ?? 0;
    let bytes = 0;
    for (const matchers of reach.selectors) {
      bytes += this.poolMemoryBytes(request.tenants, matchers, reach.fromNs, reach.throughNs);
      if (bytes >= minBytes) return true;
    }
    return bytes >= minBytes;
  }

  /**
   * Uncompressed bytes the in-process ingester holds of matching streams in the part of
   * [fromNs, throughNs) it is asked for, when query workers read memory (`poolMemory`); else 0.
   * The query frontend adds them to the store's index bytes to shard such queries, so their
   * shards keep the workers busy.
   */
  poolMemoryBytes(
    tenants: readonly string[],
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): number {
    const local = this.local;
    if (local === null) return 0;
    const range = this.window.ingesterRange(fromNs, throughNs);
    if (range === null) return 0;
    let bytes = 0;
    for (const tenant of tenants) bytes += local.bytesInMemory(tenant, matchers, range);
    return bytes;
  }

  labelNames(
    tenants: readonly string[],
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[],
  ): Promise<string[]> {
    const r = this.metadataRange(tenants, fromNs, throughNs);
    return this.metadata.labelNames(tenants, r.startNs, r.endNs, matchers);
  }

  labelValues(
    tenants: readonly string[],
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[],
  ): Promise<string[]> {
    const r = this.metadataRange(tenants, fromNs, throughNs);
    return this.metadata.labelValues(tenants, name, r.startNs, r.endNs, matchers);
  }

  series(
    tenants: readonly string[],
    groups: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    const r = this.metadataRange(tenants, fromNs, throughNs);
    return this.metadata.series(tenants, groups, r.startNs, r.endNs);
  }

  /** The range of a metadata request under the tenants' lookback and length limits. */
  private metadataRange(tenants: readonly string[], fromNs: bigint, throughNs: bigint) {
    const limits = queryLimits(tenants.map((t) => this.overrides.forTenant(t)));
    return metadataRange(limits, fromNs, throughNs, this.options.now());
  }

  indexStats(
    tenants: readonly string[],
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<IndexStats> {
    return this.metadata.stats(tenants, matchers, fromNs, throughNs);
  }

  streamVolumes(
    tenants: readonly string[],
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    return this.metadata.streamVolumes(tenants, matchers, fromNs, throughNs);
  }

  /** Like Loki, a tenant without `volume_enabled` does not have the volume endpoints at all. */
  checkVolumesEnabled(tenants: readonly string[]): void {
    if (tenants.some((t) => !this.overrides.forTenant(t).volume_enabled)) {
      throw new VolumesDisabledError();
    }
  }

  /**
   * Volumes per name (stream label set, or label name), bucket by bucket: each bucket keeps its
   * `limit` largest names. Refused when a tenant does not have `volume_enabled` (Loki has no
   * such endpoint then), or when more names than `volume_max_series` turn up.
   */
  async volumes(request: VolumeRequest): Promise<Map<string, VolumeSample[]>> {
    const { tenants } = request;
    this.checkVolumesEnabled(tenants);
    const maxSeries = Math.min(
      ...tenants.map((t) => this.overrides.forTenant(t).volume_max_series),
    );
    const plan = planVolume(request.matchers, request.targetLabels, request.aggregateBy);
    const series = new Map<string, VolumeSample[]>();
    for (const bucket of volumeBuckets(request.startNs, request.endNs, request.stepNs)) {
      const streams = await this.metadata.streamVolumes(
        tenants,
        plan.matchers,
        bucket.fromNs,
        bucket.throughNs,
      );
      for (const [name, bytes] of topVolumes(
        accumulateVolumes(streams, plan, maxSeries),
        request.limit,
      )) {
        let samples = series.get(name);
        if (!samples) series.set(name, (samples = []));
        samples.push({ ns: bucket.atNs, value: bytes });
      }
    }
    return series;
  }

  /** Logs Drilldown's fields of a log query's newest entries (`detected_fields`). */
  detectedFields(request: DetectedFieldsRequest): Promise<DetectedField[]> {
    return this.detected.fields(request);
  }

  /** The values of one detected field (`detected_field/<name>/values`). */
  detectedFieldValues(request: DetectedFieldsRequest, name: string): Promise<string[]> {
    return this.detected.fieldValues(request, name);
  }

  /** Logs Drilldown's stream labels with their cardinality (`detected_labels`). */
  detectedLabels(request: DetectedLabelsRequest): Promise<DetectedLabel[]> {
    return this.detected.labels(request);
  }

  /**
   * Starts a live tail writing to `output`. Never throws: a refusal (tail limit, bad query,
   * query limits) and any later failure end the tail through `output.fail`. Close the returned
   * tail when the client goes away.
   */
  tail(request: TailRequest, output: TailOutput): Tailer {
    let release = (): void => {};
    const tailer = new Tailer(
      request,
      output,
      {
        ingesters: this.options.ingesters,
        history: (r, signal) => this.tailHistory(r, signal),
        maxDurationMs: this.options.tailMaxDurationMs ?? 3_600_000,
        ...(this.options.tailLimits === undefined ? {} : { limits: this.options.tailLimits }),
      },
      () => release(),
    );
    let limit: number;
    try {
      limit = this.overrides.forTenant(request.tenant).max_concurrent_tail_requests;
      release = this.tailSlots.acquire(request.tenant, limit);
    } catch (err) {
      output.fail(err as Error);
      tailer.close();
      return tailer;
    }
    void this.startTail(tailer, output, request.tenant, limit);
    return tailer;
  }

  /**
   * Starts the tail if the ingesters' count allows it, as Loki's `checkTailRequestLimit` does:
   * each ingester counts the tenant's tails of every querier. This querier's own slots count
   * too, for its tails still on their way to the ingesters.
   */
  private async startTail(
    tailer: Tailer,
    output: TailOutput,
    tenant: string,
    limit: number,
  ): Promise<void> {
    try {
      const onIngesters = await this.options.ingesters.tailersCount(tenant);
      const open = Math.max(onIngesters, this.tailSlots.count(tenant) - 1);
      if (open >= limit) throw new TailLimitError(open + 1, limit);
    } catch (err) {
      if (tailer.isClosed) return;
      output.fail(err instanceof Error ? err : new Error(String(err)));
      tailer.close();
      return;
    }
    if (!tailer.isClosed) await tailer.start();
  }

  /** Open tails of a tenant on this querier. */
  openTails(tenant: string): number {
    return this.tailSlots.count(tenant);
  }

  /** The newest `limit` entries since the tail's start, by a backward log query. */
  private async tailHistory(request: TailRequest, signal: AbortSignal) {
    const { result } = await this.executor.run({
      kind: 'range',
      query: request.query,
      startNs: request.startNs,
      endNs: this.options.now(),
      stepNs: 1_000_000_000n,
      intervalNs: 0n,
      limit: request.limit,
      direction: 'backward',
      tenants: [request.tenant],
      categorizeLabels: request.categorizeLabels === true,
      clientSignal: signal,
    });
    return result.type === 'streams' ? result.streams : [];
  }

  /** Ends the scan pool's worker threads; queries still scanning fail. */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}
