import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { join } from 'node:path';
import type { Labels, LogEntry, Matcher, PushRequest } from '@logsvc/api';
import { BlockSpill, MemChunk, type ChunkOptions, type Direction } from '@logsvc/chunk';
import {
  DEFAULT_FLUSH_BACKOFF,
  DEFAULT_INGESTER_CONFIG,
  DEFAULT_TENANT_LIMITS,
  streamCountLimit,
  type IngesterConfig,
  type IngesterLimitsProvider,
  type RingShare,
} from './config';
import { CheckpointPace, checkpointWatch, seconds } from './checkpoint-budget';
import { FlushError, IngestError, IngesterStoppedError, WalCorruptionError } from './errors';
import { Flusher } from './flusher';
import { HeadBudget } from './head-budget';
import {
  bytesInRange,
  type MemorySelect,
  type MemorySnapshot,
  snapshotStreams,
} from './memory-snapshot';
import { formatRfc3339 } from '@logsvc/gocompat';
import { Instance, type InstancePushResult, type PushContext, type StreamCensus } from './instance';
import { streamAdmission, type StreamAdmission } from './stream-admission';
import { SILENT_LOGGER, type IngesterLogger } from './logger';
import { bump, newCounters, type IngesterCounters } from './metrics';
import {
  labelNamesOf,
  labelValuesOf,
  matchingStreams,
  queryStreams,
  type IngesterQueryStats,
  type StreamQueryResult,
  type TimeRange,
  type ReadOptions,
} from './query';
import type { ChunkSink } from './sink';
import { encodedChunk, type CutReason, type OrderingRules, type Stream } from './stream';
import { removeEntries } from './stream-rollback';
import {
  encodeCheckpointStream,
  type CheckpointStream,
  type DecodedPushStream,
} from './wal/records';
import { Wal, type ReplayResult } from './wal/wal';
import type { WalFs } from './wal/wal-fs';

export interface IngesterOptions {
  readonly config: IngesterConfig;
  /** Where flushed chunks go. */
  readonly sink: ChunkSink;
  /** Per-tenant limits; Loki's defaults when absent. */
  readonly limits?: IngesterLimitsProvider;
  /** Healthy ingesters and replication factor for the global stream limit; 1 and 1 when absent. */
  readonly ringShare?: () => RingShare;
  readonly logger?: IngesterLogger;
  /** Wall clock in ms (idle and retain periods, flush retries); injectable for tests. */
  readonly now?: () => number;
  /** WAL segment size in bytes (default 64 MiB). */
  readonly walSegmentSize?: number;
  /** WAL directory lock timing (default 1 s heartbeat, stale after 10 s); tests shorten it. */
  readonly walLock?: { readonly heartbeatMs?: number; readonly staleMs?: number };
  /** Where WAL files are opened; tests inject slow or failing writes. */
  readonly walFs?: WalFs;
  /** Run the flush-check and checkpoint loops on timers (default true). */
  readonly backgroundLoops?: boolean;
}

export interface PushOutcome {
  /** Entries stored (and, with the WAL on, fsync'd before this resolved). */
  readonly appended: number;
  readonly appendedBytes: number;
  /**
   * Entries dropped as identical (timestamp and line) to one already stored; with the WAL on,
   * the records holding the originals were on disk before this resolved.
   */
  readonly duplicates: number;
  /** Per-stream refusals; the rest of the request was stored. */
  readonly errors: IngestError[];
}

/** Called with the entries each push stored in a stream, once its WAL record is on disk. */
export type AppendListener = (tenant: string, labels: Labels, entries: readonly LogEntry[]) => void;

/**
 * Whether a listener wants a tenant's entries now. A push nobody listens to keeps none of its
 * entries past its own tick: they would otherwise live until the fsync.
 */
export type AppendInterest = (tenant: string) => boolean;

export interface LabelQuery {
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly matchers?: readonly Matcher[];
}

type State = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

const streamKey = (tenant: string, labelsText: string): string => tenant + '\u0000' + labelsText;

/**
 * The ingester core: per-tenant instances of streams in memory, the write-ahead log that
 * makes every acknowledged push survive a crash, chunk cutting and flushing to a ChunkSink,
 * and queries over what is in memory. No HTTP here; the Nest module wires it up.
 */
export class Ingester {
  private readonly config: IngesterConfig;
  private readonly instances = new Map<string, Instance>();
  /** Streams in memory over all tenants (`max_global_streams` is checked against it). */
  private readonly census: StreamCensus = { count: 0 };
  private readonly counters: IngesterCounters = newCounters();
  private readonly logger: IngesterLogger;
  private readonly now: () => number;
  private readonly flusher: Flusher;
  /** Shared by every instance and stream: `spill` is set once the WAL directory is ours. */
  private readonly chunkOptions: Partial<ChunkOptions>;
  private spill: BlockSpill | null = null;
  private readonly windowNs: bigint;
  private readonly headBudget: HeadBudget;
  private readonly listeners = new Map<AppendListener, AppendInterest>();
  private readonly onCut = (reason: CutReason): void =>
    bump(this.counters.chunks_cut_total, reason);
  private wal: Wal | null = null;
  private state: State = 'new';
  private timers: NodeJS.Timeout[] = [];
  /** Replay only: WAL records of a stream below its mark are already in the checkpoint. */
  private replayMarks: Map<string, number> | null = null;
  private readonly checkpointPace = new CheckpointPace();

  constructor(private readonly opts: IngesterOptions) {
    this.config = { ...DEFAULT_INGESTER_CONFIG, ...opts.config };
    this.logger = opts.logger ?? SILENT_LOGGER;
    this.now = opts.now ?? Date.now;
    this.chunkOptions = {
      encoding: this.config.chunk_encoding,
      blockSize: this.config.chunk_block_size,
      targetSize: this.config.chunk_target_size,
    };
    this.windowNs = (BigInt(Math.round(this.config.max_chunk_age)) * 1_000_000n) / 2n;
    this.headBudget = new HeadBudget(
      this.config.max_head_block_bytes ?? 0,
      this.config.chunk_block_size,
    );
    this.flusher = new Flusher({
      sink: opts.sink,
      concurrency: this.config.concurrent_flushes,
      backoff: this.config.flush_op_backoff ?? DEFAULT_FLUSH_BACKOFF,
      opTimeoutMs: this.config.flush_op_timeout,
      retainMs: this.config.chunk_retain_period,
      now: this.now,
      walSettled: (seq) => this.wal === null || seq <= this.wal.settledSeq,
      logger: this.logger,
      counters: this.counters,
    });
  }

  /** Replays the WAL (when enabled) and starts the flush and checkpoint loops. */
  async start(): Promise<ReplayResult | null> {
    if (this.state !== 'new')
      throw new IngesterStoppedError(`ingester cannot start: ${this.state}`);
    this.state = 'starting';
    let replay: ReplayResult | null = null;
    if (this.config.wal.enabled) {
      this.wal = await Wal.open({
        dir: this.config.wal.dir,
        segmentSize: this.opts.walSegmentSize,
        lockHeartbeatMs: this.opts.walLock?.heartbeatMs,
        lockStaleMs: this.opts.walLock?.staleMs,
        fs: this.opts.walFs,
        logger: this.logger,
        counters: this.counters,
      });
      if (this.config.spill_chunk_blocks) {
        this.spill = BlockSpill.open(join(this.config.wal.dir, 'block-spill'));
        this.chunkOptions.spill = this.spill;
      }
      this.replayMarks = new Map();
      try {
        replay = await this.wal.replay({
          restoreStream: (s) => this.restoreStream(s),
          replayPush: (seq, tenant, streams) => {
            const instance = this.instance(tenant);
            const nowMs = this.now();
            for (const s of streams) {
              const mark = this.replayMarks?.get(streamKey(tenant, s.labelsText));
              if (mark !== undefined && seq < mark) continue;
              instance.replay(s.labelsText, s.entries, nowMs);
            }
          },
        });
      } finally {
        this.replayMarks = null;
      }
    }
    this.state = 'running';
    if (this.opts.backgroundLoops ?? true) this.startLoops();
    return replay;
  }

  /** Counters and gauges for /metrics (the same object, refreshed). */
  metrics(): IngesterCounters {
    let streams = 0;
    let chunks = 0;
    for (const inst of this.instances.values()) {
      streams += inst.streams.size;
      for (const s of inst.streams.values()) chunks += s.closed.length + (s.head ? 1 : 0);
    }
    this.counters.memory_streams = streams;
    this.counters.memory_chunks = chunks;
    return this.counters;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  /** Started and not yet stopped: it answers reads (while stopping too, as it flushes). */
  get servesReads(): boolean {
    return this.state === 'running' || this.state === 'stopping';
  }

  /**
   * Stores a tenant's push: entries go to their streams in memory and, as one record, to the
   * WAL; resolves once that record is fsync'd and, if entries were dropped as copies of stored
   * ones, once every record before it is too. Refused entries come back as per-stream errors.
   * Rejects with WalWriteError if the WAL cannot be written (the push must not be acked); its
   * entries are then gone from memory again.
   */
  push(tenant: string, req: PushRequest): Promise<PushOutcome> {
    try {
      const { outcome, durable } = this.store(tenant, req);
      // Only the small outcome waits for the fsync: the request's entries die young.
      return durable ? durable.then(() => outcome) : Promise.resolve(outcome);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  /**
   * Which new streams a push of this tenant may still create, as of now: lets the distributor
   * drop streams over the tenant's or the process's stream limit while it decodes, before any
   * state is built for them. `push` checks the limits again when it stores.
   */
  streamAdmission(tenant: string): StreamAdmission {
    const inst = (): Instance | undefined => this.instances.get(tenant);
    return streamAdmission({
      tenant,
      exists: (text) => inst()?.streams.has(text) ?? false,
      tenantLeft: this.streamLimitOf(this.limitsOf(tenant)) - (inst()?.streams.size ?? 0),
      globalLeft: this.globalStreamLimit() - this.census.count,
      onRefused: (e) => {
        bump(this.counters.discarded_entries_total, e.reason, e.discardedEntries);
        bump(this.counters.discarded_bytes_total, e.reason, e.discardedBytes);
      },
    });
  }

  /** Streams in memory over all tenants. */
  get streamCount(): number {
    return this.census.count;
  }

  private limitsOf(tenant: string) {
    return (this.opts.limits ?? (() => DEFAULT_TENANT_LIMITS))(tenant);
  }

  private streamLimitOf(limits: ReturnType<IngesterLimitsProvider>): number {
    const share = this.opts.ringShare?.() ?? { healthyIngesters: 1, replicationFactor: 1 };
    return streamCountLimit(limits, share);
  }

  /** Every stream in memory, of all tenants. */
  private *allStreams(): Generator<Stream> {
    for (const inst of this.instances.values()) yield* inst.streams.values();
  }

  /** `max_global_streams`, Infinity when 0 (off). */
  private globalStreamLimit(): number {
    const max = this.config.max_global_streams;
    return max > 0 ? max : Number.POSITIVE_INFINITY;
  }

  /** Whether any listener wants this tenant's stored entries. */
  private listened(tenant: string): boolean {
    for (const interested of this.listeners.values()) if (interested(tenant)) return true;
    return false;
  }

  /** Tells tail listeners about entries a push stored (once they are durable). */
  private notifyAll(tenant: string, result: InstancePushResult): void {
    const { wal, stored } = result;
    const listeners: AppendListener[] = [];
    for (const [l, interested] of this.listeners) if (interested(tenant)) listeners.push(l);
    for (let i = 0; i < stored.length; i++) {
      for (const l of listeners) this.notify(l, tenant, stored[i].labels, wal[i].entries);
    }
  }

  /**
   * Takes a push whose WAL record failed back out of memory: it is answered with an error, so
   * queries must not show its entries and no checkpoint may make them permanent. Streams it
   * created and left empty go too (they count against the stream limit). `streams` are the
   * record's own entries, decoded from it; `created` the streams this push made.
   */
  private rollBack(
    tenant: string,
    streams: readonly DecodedPushStream[],
    created: ReadonlySet<Stream>,
    outcome: PushOutcome,
  ) {
    const inst = this.instances.get(tenant);
    let removed = 0;
    for (const d of streams) {
      const s = inst?.streams.get(d.labelsText);
      if (!inst || !s) continue;
      removed += removeEntries(s, d.entries);
      if (!s.isEmpty || s.flushQueued) continue;
      inst.removeStream(s.labelsText);
      if (created.has(s)) this.counters.streams_created_total--;
      else this.counters.streams_removed_total++;
    }
    this.counters.entries_appended_total -= outcome.appended;
    this.counters.bytes_appended_total -= outcome.appendedBytes;
    if (removed !== outcome.appended) {
      // Cannot happen while chunks wait for their records before flushing; loud if it does.
      this.logger.error(
        { tenant, entries: outcome.appended, removed },
        'WAL write failed and not every entry of the push could be taken back out of memory',
      );
    }
  }

  /**
   * The synchronous part of `push`: memory, counters and the WAL record queued. `durable`
   * settles once everything the push acknowledges is on disk (null: nothing to wait for).
   */
  private store(
    tenant: string,
    req: PushRequest,
  ): { outcome: PushOutcome; durable: Promise<void> | null } {
    if (this.state !== 'running') {
      throw new IngesterStoppedError(`ingester is not running (${this.state})`);
    }
    const limits = this.limitsOf(tenant);
    const rules: OrderingRules = {
      unorderedWrites: limits.unordered_writes,
      windowNs: this.windowNs,
      formatTooFarBehind: tooFarBehind,
    };
    const ctx: PushContext = {
      nowMs: this.now(),
      rateLimits: limits,
      streamLimit: this.streamLimitOf(limits),
      globalStreamLimit: this.globalStreamLimit(),
      rules,
      maxReturnedErrors: this.config.max_returned_stream_errors,
      onCut: this.onCut,
      onStreamCreated: () => this.counters.streams_created_total++,
      walSeq: this.wal ? this.wal.nextSeq : 0,
    };
    const result = this.instance(tenant).push(req, ctx);
    const errors = result.errors;
    const c = this.counters;
    c.head_blocks_cut_early_total += this.headBudget.stored(result.bytes, () => this.allStreams());
    c.entries_appended_total += result.entries;
    c.bytes_appended_total += result.bytes;
    c.duplicate_entries_total += result.duplicates;
    for (const e of errors) {
      bump(c.discarded_entries_total, e.reason, e.discardedEntries);
      bump(c.discarded_bytes_total, e.reason, e.discardedBytes);
    }
    const outcome: PushOutcome = {
      appended: result.entries,
      appendedBytes: result.bytes,
      duplicates: result.duplicates,
      errors,
    };
    const listened = this.listened(tenant);
    if (!this.wal) {
      if (listened) this.notifyAll(tenant, result);
      return { outcome, durable: null };
    }
    const waits: Promise<void>[] = [];
    if (result.duplicates > 0) {
      // Entries dropped as copies of stored ones are durable only once the records holding
      // the originals are, which may still be in flight: wait for every record so far (one
      // that failed fails this push too: its originals were taken back out of memory).
      waits.push(this.wal.durable());
    }
    if (result.wal.length > 0) {
      // Memory and the record's sequence number change in the same tick (see checkpointFrames).
      // Nothing here keeps the push's entries alive until the fsync unless a tail listens.
      const created = new Set(result.created);
      const own = this.wal.append(
        tenant,
        result.wal,
        (streams) => this.rollBack(tenant, streams, created, outcome),
        req.source,
      );
      if (listened) {
        own.then(
          () => this.notifyAll(tenant, result),
          () => {},
        );
      }
      waits.push(own);
    }
    if (waits.length === 0) return { outcome, durable: null };
    return { outcome, durable: waits.length === 1 ? waits[0] : Promise.all(waits).then(() => {}) };
  }

  /**
   * Registers a listener for stored entries (the tail endpoint), told of the pushes of the
   * tenants it is `interested` in when they are stored (all when absent); returns its remover.
   */
  onAppend(listener: AppendListener, interested: AppendInterest = () => true): () => void {
    this.listeners.set(listener, interested);
    return () => this.listeners.delete(listener);
  }

  /**
   * One pass of the flush loop: closes head chunks idle longer than `chunk_idle_period` or
   * spanning more than `max_chunk_age`, flushes due closed chunks, drops flushed chunks past
   * `chunk_retain_period` and streams left empty. Resolves when its flushes are done.
   */
  async flushCheck(): Promise<void> {
    const now = this.now();
    const maxAgeNs = BigInt(Math.round(this.config.max_chunk_age)) * 1_000_000n;
    const ops: Promise<boolean>[] = [];
    for (const inst of this.instances.values()) {
      for (const s of inst.streams.values()) {
        const head = s.head;
        if (head && head.entryCount > 0) {
          if (now - s.headLastAppendMs > this.config.chunk_idle_period) {
            s.cutHead('idle', now, this.onCut);
          } else if (head.maxTimeNs - head.minTimeNs > maxAgeNs) {
            s.cutHead('max_age', now, this.onCut);
          }
        }
        this.flusher.dropRetained(s);
        if (s.closed.some((c) => c.flushedAtMs === null && !c.flushing && c.retryAtMs <= now)) {
          ops.push(this.flusher.flushStream(s, false));
        }
      }
    }
    await Promise.all(ops);
    this.removeEmptyStreams();
  }

  /**
   * Closes every head chunk and flushes everything (POST /flush, shutdown). Rejects with
   * FlushError if some chunks still fail after their retries; they stay in memory.
   */
  async flushAll(): Promise<void> {
    await this.flusher.forcing(() => this.flushEverything());
    this.removeEmptyStreams();
  }

  private async flushEverything(): Promise<void> {
    const now = this.now();
    for (const inst of this.instances.values()) {
      for (const s of inst.streams.values()) s.cutHead('forced', now, this.onCut);
    }
    // Chunks wait for their WAL records to settle before they are flushed.
    await this.wal?.durable().catch(() => {});
    this.flusher.lastError = null;
    for (let round = 0; round < 3; round++) {
      await this.flusher.idle();
      const ops: Promise<boolean>[] = [];
      for (const inst of this.instances.values()) {
        for (const s of inst.streams.values()) {
          if (s.closed.some((c) => c.flushedAtMs === null))
            ops.push(this.flusher.flushStream(s, true));
        }
      }
      if (ops.length === 0) break;
      const results = await Promise.all(ops);
      if (results.includes(false)) {
        const why = this.flusher.lastError;
        const reason = why instanceof Error ? `: ${why.message}` : '';
        const failed = results.filter((r) => !r).length;
        throw new FlushError(`${failed} streams failed to flush${reason}`, { cause: why });
      }
    }
  }

  /**
   * Writes a WAL checkpoint now (the loop does this every `checkpoint_duration`). After it,
   * replay starts from the checkpoint and older segments are gone, so flushed data is no
   * longer replayed.
   */
  async checkpoint(): Promise<void> {
    if (!this.wal) return;
    const wal = this.wal;
    const streams = this.census.count;
    const startedAt = performance.now();
    const written = await wal.checkpoint(() => this.checkpointFrames(wal));
    if (written !== null) this.checkpointPace.record(streams, performance.now() - startedAt);
  }

  /**
   * Stops the loops; with `flush`, flushes everything first. Writes a final checkpoint and
   * closes the WAL after all pending records are on disk. With `budgetMs` (the graceful
   * shutdown period), the final checkpoint warns as soon as its pace shows it will not finish
   * in what is left of it, and is given up at the deadline with an error log that says so
   * (checkpoint-budget.ts).
   */
  async shutdown(options: { flush: boolean; budgetMs?: number }): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    const deadlineMs =
      options.budgetMs !== undefined && options.budgetMs > 0
        ? this.now() + options.budgetMs
        : undefined;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    if (this.wal && options.budgetMs !== undefined && options.budgetMs > 0) {
      // Said at once, before the flush and the checkpoint use up the period.
      const tooLong = this.checkpointPace.tooLong(this.census.count, options.budgetMs);
      if (tooLong) this.logger.warn(tooLong.fields, tooLong.message);
    }
    let flushError: unknown = null;
    try {
      await this.flusher.idle();
      if (options.flush) await this.flushAll().catch((err) => (flushError = err));
      if (this.wal) {
        const wal = this.wal;
        const streams = this.census.count;
        const warn = (projectedMs: number, budgetMs: number): void =>
          this.logger.warn(
            { streams, projected_ms: Math.round(projectedMs), budget_ms: Math.round(budgetMs) },
            `final WAL checkpoint of ${streams} streams needs about ${seconds(projectedMs)} at ` +
              `its pace, more than the ${seconds(budgetMs)} left of ` +
              'server.graceful_shutdown_timeout: it is given up at the deadline unless it speeds up',
          );
        const watch =
          deadlineMs === undefined ? undefined : checkpointWatch(deadlineMs, warn, this.now);
        this.logger.info({ streams }, 'writing the final WAL checkpoint');
        await wal
          .checkpoint(() => this.checkpointFrames(wal, watch))
          .catch((err) => this.logger.error({ err }, 'final WAL checkpoint failed'));
        await this.wal.close();
      }
      this.spill?.close();
    } finally {
      this.state = 'stopped';
    }
    if (flushError) throw flushError;
  }

  /** Entries of matching streams in [fromNs, throughNs) from memory, per stream. */
  query(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
    direction: Direction,
    stats?: IngesterQueryStats,
    options?: ReadOptions,
  ): StreamQueryResult[] {
    const range: TimeRange = { fromNs, throughNs };
    const streams = matchingStreams(this.instances.get(tenant), matchers, range);
    return queryStreams(streams, range, direction, stats ?? discardStats(), options);
  }

  /**
   * The chunks of matching streams in [fromNs, throughNs) as they are now, for a query worker
   * thread to read (`SnapshotIngesterClient`) exactly as `query` would read them here.
   */
  snapshot(tenant: string, select: MemorySelect): MemorySnapshot {
    const range: TimeRange = { fromNs: select.fromNs, throughNs: select.throughNs };
    const streams = matchingStreams(this.instances.get(tenant), select.matchers, range);
    return snapshotStreams(streams, range, select.shard);
  }

  /** Uncompressed bytes in memory of matching streams' chunks in [fromNs, throughNs). */
  bytesInMemory(tenant: string, matchers: readonly Matcher[], range: TimeRange): number {
    return bytesInRange(matchingStreams(this.instances.get(tenant), matchers, range), range);
  }

  /**
   * Label names of every matching stream in memory, whatever the time of its entries: as Loki's
   * ingester answers from its index, and as the spec allows ("may use a larger time span"). The
   * querier asks ingesters only when the range reaches into `query_ingesters_within`.
   */
  labelNames(tenant: string, q: LabelQuery): string[] {
    return labelNamesOf(matchingStreams(this.instances.get(tenant), q.matchers ?? [], undefined));
  }

  /** Values of `name` over every matching stream in memory (see labelNames). */
  labelValues(tenant: string, name: string, q: LabelQuery): string[] {
    const streams = matchingStreams(this.instances.get(tenant), q.matchers ?? [], undefined);
    return labelValuesOf(streams, name);
  }

  /** Label sets of streams with data in range matching any of the matcher lists (all if none). */
  series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Labels[] {
    const instance = this.instances.get(tenant);
    const range = { fromNs, throughNs };
    const lists = matchersList.length > 0 ? matchersList : [[]];
    const seen = new Set<Stream>();
    const out: Labels[] = [];
    for (const matchers of lists) {
      for (const s of matchingStreams(instance, matchers, range)) {
        if (seen.has(s)) continue;
        seen.add(s);
        out.push(s.labels);
      }
    }
    return out;
  }

  /** Tenants with streams in memory. */
  tenants(): string[] {
    return [...this.instances.keys()].filter((t) => (this.instances.get(t)?.streams.size ?? 0) > 0);
  }

  private instance(tenant: string): Instance {
    let inst = this.instances.get(tenant);
    if (!inst) {
      inst = new Instance(tenant, this.chunkOptions, this.census);
      this.instances.set(tenant, inst);
    }
    return inst;
  }

  private notify(
    listener: AppendListener,
    tenant: string,
    labels: Labels,
    entries: readonly LogEntry[],
  ): void {
    try {
      listener(tenant, labels, entries);
    } catch (err) {
      this.logger.warn({ err }, 'append listener failed');
    }
  }

  private removeEmptyStreams(): void {
    for (const [tenant, inst] of this.instances) {
      for (const [key, s] of inst.streams) {
        if (s.isEmpty && !s.flushQueued) {
          inst.removeStream(key);
          this.counters.streams_removed_total++;
        }
      }
      if (inst.streams.size === 0) this.instances.delete(tenant);
    }
  }

  /**
   * Checkpoint records of every stream. Each stream is encoded in one synchronous step
   * together with its mark (the WAL's next sequence number at that moment): since a push
   * changes memory and takes its sequence number in the same tick, the stream's state holds
   * exactly its records below the mark. Streams that vanished (fully flushed) still get a
   * record, so replay skips their older records instead of re-creating flushed data.
   */
  private async *checkpointFrames(
    wal: Wal,
    watch?: (done: number, total: number) => void,
  ): AsyncGenerator<Buffer> {
    const keys: [string, string][] = [];
    for (const [tenant, inst] of this.instances) {
      for (const text of inst.streams.keys()) keys.push([tenant, text]);
    }
    for (let i = 0; i < keys.length; i++) {
      const [tenant, labelsText] = keys[i];
      const s = this.instances.get(tenant)?.streams.get(labelsText);
      const mark = wal.nextSeq;
      const closed = s ? s.unflushed().map(encodedChunk) : [];
      const chunk = s?.head && s.head.entryCount > 0 ? s.head : null;
      // The open block uncompressed; encoded and compressed only when it took entries out of order.
      const headParts = chunk?.checkpointParts() ?? null;
      const head = chunk !== null && headParts === null ? chunk.encodeSnapshot() : null;
      yield encodeCheckpointStream({
        tenant,
        labelsText,
        mark,
        newestNs: s ? s.newestNs : -1n,
        lastTimestampNs: s ? s.lastTimestampNs : 0n,
        lastLine: s ? s.lastLine : null,
        closedChunks: closed,
        headChunk: head,
        headParts,
      });
      if (i % 64 === 63) {
        watch?.(i + 1, keys.length);
        await yieldToLoop();
      }
    }
  }

  private restoreStream(cs: CheckpointStream): void {
    this.replayMarks?.set(streamKey(cs.tenant, cs.labelsText), cs.mark);
    if (cs.closedChunks.length === 0 && cs.headChunk === null && cs.headParts === null) return;
    const nowMs = this.now();
    try {
      const s = this.instance(cs.tenant).streamForReplay(cs.labelsText);
      for (const data of cs.closedChunks) {
        const own = Buffer.from(data);
        s.restoreClosed(MemChunk.decode(own), own, nowMs);
      }
      if (cs.headChunk) {
        // Its own copy: the chunk's blocks are views into it, not into the whole checkpoint.
        s.head = MemChunk.restore(Buffer.from(cs.headChunk), this.chunkOptions);
        s.headLastAppendMs = nowMs;
      } else if (cs.headParts) {
        // Copies too, for the same reason.
        const { blocks, head } = cs.headParts;
        const parts = { blocks: blocks && Buffer.from(blocks), head: Buffer.from(head) };
        s.head = MemChunk.restoreParts(parts, this.chunkOptions);
        s.headLastAppendMs = nowMs;
      }
      s.newestNs = cs.newestNs;
      s.lastTimestampNs = cs.lastTimestampNs;
      s.lastLine = cs.lastLine ? Buffer.from(cs.lastLine) : null;
    } catch (err) {
      throw new WalCorruptionError(
        `checkpoint stream ${cs.labelsText} of tenant ${cs.tenant}: ${(err as Error).message}`,
      );
    }
  }

  private startLoops(): void {
    const every = (ms: number, task: () => Promise<void>, what: string): void => {
      if (!(ms > 0)) return;
      const tick = (): void => {
        const t = setTimeout(() => {
          task()
            .catch((err) => this.logger.error({ err }, `${what} failed`))
            .finally(() => {
              this.timers = this.timers.filter((x) => x !== t);
              if (this.state === 'running') tick();
            });
        }, ms);
        t.unref();
        this.timers.push(t);
      };
      tick();
    };
    every(this.config.flush_check_period, () => this.flushCheck(), 'flush check');
    if (this.wal) every(this.config.wal.checkpoint_duration, () => this.checkpoint(), 'checkpoint');
  }
}

function tooFarBehind(entryNs: bigint, cutoffNs: bigint): string {
  return `entry too far behind, entry timestamp is: ${formatRfc3339(entryNs)}, oldest acceptable timestamp is: ${formatRfc3339(cutoffNs)}`;
}

function discardStats(): IngesterQueryStats {
  return { totalChunksMatched: 0, headChunkBytes: 0, headChunkLines: 0, compressedBytes: 0 };
}
