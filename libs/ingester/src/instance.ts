import {
  labelsToString,
  parseLabels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type StreamMemo,
} from '@logsvc/api';
import type { ChunkOptions, HeadBlock, MemChunk } from '@logsvc/chunk';
import { IngestError } from './errors';
import { formatGoTime } from '@logsvc/gocompat';
import { entryBytes, Stream, type CutReason, type OrderingRules } from './stream';
import type { StreamRateLimits } from './config';
import { StreamLimitRefusals } from './stream-limit-errors';
import { StreamRateCheck } from './stream-rate-check';
import type { WalStreamInput } from './wal/records';

/** Streams of a push whose state is read ahead together (see `Instance.warmStreams`). */
const WARM_GROUP = 32;

/** Everything one push needs besides the request. */
export interface PushContext {
  readonly nowMs: number;
  /** The tenant's per-stream rate limits. */
  readonly rateLimits: StreamRateLimits;
  /** Streams this tenant may hold; Infinity when unlimited. */
  readonly streamLimit: number;
  /** Streams all tenants together may hold (`max_global_streams`); Infinity when unlimited. */
  readonly globalStreamLimit: number;
  readonly rules: OrderingRules;
  /** Refused entries listed in one stream's error message; 0 lists all. */
  readonly maxReturnedErrors: number;
  readonly onCut: (reason: CutReason) => void;
  readonly onStreamCreated: () => void;
  /** The WAL record this push's stored entries go to (0 with the WAL off). */
  readonly walSeq: number;
}

export interface InstancePushResult {
  /** What the WAL record of this push holds: the stored entries only, per stream. */
  readonly wal: WalStreamInput[];
  /** The stream of each item of `wal` (for tail listeners). */
  readonly stored: Stream[];
  /** Streams this push created (to undo the push). */
  readonly created: Stream[];
  readonly entries: number;
  readonly bytes: number;
  readonly duplicates: number;
  readonly errors: IngestError[];
}

/** Streams in memory over all tenants, kept up to date as instances add and remove them. */
export interface StreamCensus {
  count: number;
}

/** One tenant's streams in memory, keyed by the canonical text of their labels. */
export class Instance {
  /** Read-only for callers: streams are added and removed through this class (the census). */
  readonly streams = new Map<string, Stream>();
  /** Written by `warmStreams` so that its reads are not optimised away. */
  private warmth = 0;
  private readonly warmChunks: (MemChunk | null)[] = new Array<MemChunk | null>(WARM_GROUP).fill(
    null,
  );
  private readonly warmBlocks: (HeadBlock | null)[] = new Array<HeadBlock | null>(WARM_GROUP).fill(
    null,
  );

  constructor(
    readonly tenant: string,
    private readonly chunkOptions: Partial<ChunkOptions>,
    private readonly census: StreamCensus,
  ) {}

  /** Drops a stream from memory (flushed and empty, or created by a push taken back). */
  removeStream(labelsText: string): void {
    const stream = this.streams.get(labelsText);
    if (stream === undefined) return;
    this.streams.delete(labelsText);
    stream.detached = true;
    this.census.count--;
  }

  private addStream(stream: Stream): void {
    this.streams.set(stream.labelsText, stream);
    this.census.count++;
  }

  /**
   * Stores a push request's entries. Refusals are collected per stream (Loki's messages);
   * other streams and entries are stored regardless. The per-stream rate limit comes first, so
   * refused entries never count against ordering or the stream limit; its 429 leads the errors.
   */
  push(req: PushRequest, ctx: PushContext): InstancePushResult {
    const wal: WalStreamInput[] = [];
    const stored: Stream[] = [];
    const created: Stream[] = [];
    const errors: IngestError[] = [];
    // Streams over a limit become one error, placed where the last of them stood.
    const refusals = new StreamLimitRefusals(this.tenant);
    let refusalsAt = 0;
    let entries = 0;
    let bytes = 0;
    let duplicates = 0;
    const rate = new StreamRateCheck(ctx.rateLimits, ctx.nowMs);
    const streams = req.streams;
    let warmedTo = 0;
    for (let i = 0; i < streams.length; i++) {
      if (i === warmedTo) warmedTo = this.warmStreams(streams, i);
      const ps = streams[i];
      if (ps.entries.length === 0) continue;
      const text = ps.labelsText ?? labelsToString(ps.labels);
      let stream = this.storedStream(ps, text);
      const bucket =
        stream === undefined ? rate.newBucket() : (stream.rateBucket ??= rate.newBucket());
      const pushed = rate.allowed(bucket, text, ps.entries, ps.bytes);
      if (pushed.length === 0) continue;
      if (stream === undefined) {
        const over =
          this.streams.size >= ctx.streamLimit
            ? 'tenant'
            : this.census.count >= ctx.globalStreamLimit
              ? 'global'
              : null;
        if (over !== null) {
          refusals.add(over, text, pushed.length, bytesOf(pushed));
          refusalsAt = errors.length;
          continue;
        }
        stream = new Stream(this.tenant, ps.labels, this.chunkOptions, text);
        stream.rateBucket = bucket;
        this.addStream(stream);
        if (ps.memo !== undefined) remember(ps.memo, this, stream);
        created.push(stream);
        ctx.onStreamCreated();
      }
      const r = stream.append(pushed, ctx.rules, ctx.nowMs, ctx.onCut, ctx.walSeq);
      duplicates += r.duplicates;
      if (r.stored.length > 0) {
        entries += r.stored.length;
        bytes += r.storedBytes;
        wal.push({ labelsText: stream.labelsBytes, entries: r.stored, series: stream });
        stored.push(stream);
      }
      if (r.refused.length > 0) {
        const ooo = r.refused[0].reason === 'entry out of order';
        const listed =
          ctx.maxReturnedErrors > 0 ? r.refused.slice(0, ctx.maxReturnedErrors) : r.refused;
        let message = '';
        for (const { entry, reason } of listed) {
          message += `entry with timestamp ${formatGoTime(entry.timestampNs)} ignored, reason: '${reason}',\n`;
        }
        message += `user '${this.tenant}', total ignored: ${r.refused.length} out of ${pushed.length} for stream: ${text}`;
        errors.push(
          new IngestError(
            'bad_request',
            ooo ? 'out_of_order' : 'too_far_behind',
            message,
            r.refused.length,
            r.refusedBytes,
          ),
        );
      }
    }
    const refused = refusals.error();
    if (refused) errors.splice(refusalsAt, 0, refused);
    const rateLimited = rate.error();
    if (rateLimited) errors.unshift(rateLimited);
    return { wal, stored, created, entries, bytes, duplicates, errors };
  }

  /**
   * Reads ahead the state of the next `WARM_GROUP` streams of a push that this instance knows,
   * and returns where the group ends. A stream's state is a chain of objects far apart in
   * memory (stream, chunk, head block, its arrays), cold since the stream's last push (a push
   * of many streams touches more than the CPU's cache holds). Reading one link at a time for
   * the whole group, the group's cache misses overlap instead of coming one after another.
   */
  private warmStreams(streams: readonly PushStream[], from: number): number {
    const to = Math.min(streams.length, from + WARM_GROUP);
    const chunks = this.warmChunks;
    const blocks = this.warmBlocks;
    let sum = 0;
    let n = 0;
    for (let i = from; i < to; i++) {
      const memo = streams[i].memo;
      if (memo === undefined || memo.key !== this) continue;
      const stream = memo.value as Stream;
      sum += stream.warm();
      if (stream.head !== null) chunks[n++] = stream.head;
    }
    for (let i = 0; i < n; i++) blocks[i] = chunks[i]!.nextHead;
    for (let i = 0; i < n; i++) sum += blocks[i]!.warmArrays();
    for (let i = 0; i < n; i++) sum += blocks[i]!.warmData();
    // Hold no chunk past the push (it may be cut and flushed).
    chunks.fill(null, 0, n);
    blocks.fill(null, 0, n);
    this.warmth = sum;
    return to;
  }

  /**
   * The stream in memory for these labels, if any: the one the stream's memo remembers when it
   * is still this instance's, else looked up (and remembered).
   */
  private storedStream(ps: PushStream, text: string): Stream | undefined {
    const memo = ps.memo;
    if (memo === undefined) return this.streams.get(text);
    if (memo.key === this) {
      const known = memo.value as Stream;
      if (!known.detached) return known;
    }
    const stream = this.streams.get(text);
    if (stream !== undefined) remember(memo, this, stream);
    return stream;
  }

  /** Replays stored entries (from the WAL) without limits or ordering checks. */
  replay(labelsText: string, entries: readonly LogEntry[], nowMs: number): void {
    const stream = this.streamForReplay(labelsText);
    stream.append(entries, null, nowMs, () => {});
  }

  /** The stream with these labels, created without limit checks (replay). */
  streamForReplay(labelsText: string): Stream {
    let stream = this.streams.get(labelsText);
    if (stream === undefined) {
      const labels = parseLabels(labelsText);
      stream = new Stream(this.tenant, labels, this.chunkOptions, labelsToString(labels));
      this.addStream(stream);
    }
    return stream;
  }
}

function remember(memo: StreamMemo, instance: Instance, stream: Stream): void {
  memo.key = instance;
  memo.value = stream;
}

/** Line plus structured metadata bytes, as every other discard reason counts them. */
export function bytesOf(entries: readonly LogEntry[]): number {
  let bytes = 0;
  for (const e of entries) bytes += entryBytes(e);
  return bytes;
}
