import { type Labels, type LogEntry, type ResultStream, labelsToString } from '@logsvc/api';
import type { IngesterClient, TailSubscription } from '@logsvc/ingester';
import { compilePipeline, parseExpr } from '@logsvc/logql';
import { entryBytes, LivePipeline } from './live-pipeline';
import { TailMaxDurationError, TailMetricQueryError } from './tail-errors';
import type { DroppedEntry, TailEntry, TailOutput, TailRequest } from './tail-types';

/** Entries per message at most (Loki's `maxEntriesPerTailResponse`). */
export const MAX_ENTRIES_PER_FRAME = 100;
/** Dropped entries reported per message at most; more are dropped silently (Loki's). */
export const MAX_DROPPED_PER_FRAME = 1000;
/** Longest single wait of the release timer; a later entry is looked at again then. */
const MAX_TIMER_MS = 60_000;

export interface TailerLimits {
  /**
   * A client with this many bytes written and not yet read is too slow: entries released
   * meanwhile are dropped and reported, as Loki drops while its 10-message buffer is full.
   */
  readonly maxBufferedBytes: number;
  /** Entries waiting for `delay_for` (or for history to be sent) hold at most this many bytes. */
  readonly maxPendingBytes: number;
}

export const DEFAULT_TAILER_LIMITS: TailerLimits = {
  maxBufferedBytes: 1 << 20,
  maxPendingBytes: 8 << 20,
};

export interface TailerOptions {
  readonly ingesters: IngesterClient;
  /** The newest `limit` entries since `startNs` (a backward log query), ended by `signal`. */
  readonly history: (request: TailRequest, signal: AbortSignal) => Promise<readonly ResultStream[]>;
  /** `querier.tail_max_duration`; 0 = no limit. */
  readonly maxDurationMs: number;
  readonly limits?: TailerLimits;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

interface Pending {
  readonly entry: TailEntry;
  readonly bytes: number;
}

/**
 * One live tail (Loki's querier `Tailer`): subscribes to the ingesters for the query's streams,
 * sends the past entries first, then live ones through the query's pipeline, in timestamp order
 * once they are `delay_for` old, up to 100 per message. Memory is bounded: entries waiting to
 * go out hold at most `maxPendingBytes` of lines and labels (a push's entries past it are
 * dropped before their formatted lines are built; history is a query under the tenant's
 * `max_query_memory_bytes`), and while the client has `maxBufferedBytes` unread,
 * entries are dropped and reported in the next message's `dropped_entries` instead.
 */
export class Tailer {
  private readonly limits: TailerLimits;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  private subscription: TailSubscription | undefined;
  private live: LivePipeline | undefined;
  /** Waiting entries, oldest first. */
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private dropped: DroppedEntry[] = [];
  /** Past entries sent, so live copies of them are not sent again. */
  private sentHistory: Set<string> | undefined;
  /**
   * A query without stages: live entries carry the stream's labels alone, history entries
   * their structured metadata too, so copies are recognised by timestamp and line only.
   */
  private get bareSelector(): boolean {
    return this.live?.streamLabelsOnly === true;
  }
  private historyNewestNs = -1n;
  private historySent = false;
  private closed = false;
  private releaseTimer: NodeJS.Timeout | undefined;
  private releaseDueMs = Infinity;
  private maxDurationTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly request: TailRequest,
    private readonly output: TailOutput,
    private readonly opts: TailerOptions,
    private readonly onClose: () => void = () => {},
  ) {
    this.limits = opts.limits ?? DEFAULT_TAILER_LIMITS;
    this.now = opts.now ?? Date.now;
  }

  /** Starts tailing; a failure (bad query, limits, no ingester) ends the tail through `fail`. */
  async start(): Promise<void> {
    try {
      await this.begin();
    } catch (err) {
      if (this.closed) return;
      this.output.fail(err instanceof Error ? err : new Error(String(err)));
      this.close();
    }
  }

  /** Stops the tail and frees everything it holds; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.subscription?.close();
    this.subscription = undefined;
    clearTimeout(this.releaseTimer);
    clearTimeout(this.maxDurationTimer);
    this.pending = [];
    this.pendingBytes = 0;
    this.dropped = [];
    this.sentHistory = undefined;
    this.onClose();
  }

  /** Bytes held by entries waiting to go out (for tests and metrics). */
  get heldBytes(): number {
    return this.pendingBytes;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private async begin(): Promise<void> {
    const expr = parseExpr(this.request.query);
    if (expr.kind !== 'LogSelectorExpr') throw new TailMetricQueryError();
    const { matchers, pipeline } = compilePipeline(expr);
    this.live = new LivePipeline(
      pipeline,
      expr.stages.length === 0,
      this.request.categorizeLabels === true,
    );
    if (this.opts.maxDurationMs > 0) {
      this.maxDurationTimer = setTimeout(() => {
        this.output.fail(new TailMaxDurationError());
        this.close();
      }, this.opts.maxDurationMs);
    }
    // Subscribed before the past is read, as Loki does, so nothing falls in between.
    const subscription = await this.opts.ingesters.tail(this.request.tenant, matchers, this.onLive);
    if (this.closed) {
      subscription.close();
      return;
    }
    this.subscription = subscription;
    const history = await this.opts.history(this.request, this.abort.signal);
    if (this.closed) return;
    this.sendHistory(history);
    this.historySent = true;
    this.scheduleRelease();
  }

  private readonly onLive = (labels: Labels, entries: readonly LogEntry[]): void => {
    if (this.closed || this.live === undefined) return;
    const kept: TailEntry[] = [];
    const dropped: DroppedEntry[] = [];
    this.live.process(
      labels,
      entries,
      kept,
      this.limits.maxPendingBytes - this.pendingBytes,
      dropped,
    );
    for (const entry of kept) this.hold(entry);
    for (const entry of dropped) this.drop(entry);
    this.scheduleRelease();
  };

  /** Puts a live entry in time order among the waiting ones, or drops it when they are full. */
  private hold(entry: TailEntry): void {
    const bytes = entryBytes(entry.line.length, entry.labels);
    if (this.pendingBytes + bytes > this.limits.maxPendingBytes) {
      this.drop(entry);
      return;
    }
    const p = this.pending;
    let i = p.length;
    while (i > 0 && p[i - 1].entry.timestampNs > entry.timestampNs) i--;
    if (i === p.length) p.push({ entry, bytes });
    else p.splice(i, 0, { entry, bytes });
    this.pendingBytes += bytes;
  }

  private sendHistory(streams: readonly ResultStream[]): void {
    const entries: TailEntry[] = [];
    for (const s of streams) {
      for (const e of s.entries) {
        const entry = { labels: s.labels, timestampNs: e[0], line: e[1] };
        entries.push(e.length === 3 ? { ...entry, categories: e[2] } : entry);
      }
    }
    // Oldest first, as Loki reverses its backward read; ties in label order.
    const text = new Map<Labels, string>();
    const textOf = (l: Labels): string => {
      let t = text.get(l);
      if (t === undefined) text.set(l, (t = labelsToString(l)));
      return t;
    };
    entries.sort((a, b) =>
      a.timestampNs !== b.timestampNs
        ? a.timestampNs < b.timestampNs
          ? -1
          : 1
        : textOf(a.labels) < textOf(b.labels)
          ? -1
          : textOf(a.labels) > textOf(b.labels)
            ? 1
            : 0,
    );
    this.sentHistory = new Set(
      entries.map((e) => entryKey(e, this.bareSelector ? '' : textOf(e.labels))),
    );
    if (entries.length > 0) this.historyNewestNs = entries[entries.length - 1].timestampNs;
    this.sendInFrames(entries);
  }

  /** Sends entries in messages of up to 100, dropping them while the client is too slow. */
  private sendInFrames(entries: readonly TailEntry[]): void {
    for (let i = 0; i < entries.length && !this.closed;) {
      if (this.output.bufferedBytes() >= this.limits.maxBufferedBytes) {
        this.drop(entries[i++]);
        continue;
      }
      const frame = entries.slice(i, i + MAX_ENTRIES_PER_FRAME);
      i += frame.length;
      const dropped = this.dropped;
      this.dropped = [];
      this.output.send({ entries: frame, dropped });
    }
  }

  private drop(entry: DroppedEntry): void {
    if (this.dropped.length < MAX_DROPPED_PER_FRAME) {
      this.dropped.push({ labels: entry.labels, timestampNs: entry.timestampNs });
    }
  }

  /** Sends the waiting entries that are `delay_for` old (Loki: now after ts + delay). */
  private release(): void {
    this.releaseTimer = undefined;
    this.releaseDueMs = Infinity;
    if (this.closed || !this.historySent) return;
    const readyBeforeNs = BigInt(this.now() - this.request.delayForMs) * 1_000_000n;
    const p = this.pending;
    let ready = 0;
    while (ready < p.length && p[ready].entry.timestampNs < readyBeforeNs) ready++;
    if (ready === 0) {
      this.scheduleRelease();
      return;
    }
    const out: TailEntry[] = [];
    let bytes = 0;
    for (let i = 0; i < ready; i++) {
      bytes += p[i].bytes;
      const e = p[i].entry;
      if (this.isHistoryCopy(e)) continue;
      out.push(e);
    }
    this.pending = ready === p.length ? [] : p.slice(ready);
    this.pendingBytes -= bytes;
    this.sendInFrames(out);
    this.scheduleRelease();
  }

  private isHistoryCopy(e: TailEntry): boolean {
    const sent = this.sentHistory;
    if (sent === undefined || sent.size === 0 || e.timestampNs > this.historyNewestNs) return false;
    return sent.has(entryKey(e, this.bareSelector ? '' : labelsToString(e.labels)));
  }

  /** Arms the release for the oldest waiting entry (next tick when it is already due). */
  private scheduleRelease(): void {
    if (this.closed || !this.historySent || this.pending.length === 0) return;
    const oldestNs = this.pending[0].entry.timestampNs;
    const dueMs = Number(oldestNs / 1_000_000n) + this.request.delayForMs + 1;
    if (this.releaseTimer !== undefined && this.releaseDueMs <= dueMs) return;
    clearTimeout(this.releaseTimer);
    const wait = Math.min(Math.max(dueMs - this.now(), 0), MAX_TIMER_MS);
    this.releaseDueMs = dueMs;
    this.releaseTimer = setTimeout(() => this.release(), wait);
  }
}

function entryKey(e: TailEntry, labelsText: string): string {
  return `${labelsText}\u0000${e.timestampNs}\u0000${e.line}`;
}
