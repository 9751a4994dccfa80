import { labelsToString, parseLabels, type LogEntry, type PushRequest } from '@logsvc/api';
import type { ChunkOptions } from '@logsvc/chunk';
import { IngestError } from './errors';
import { formatGoTime } from '@logsvc/gocompat';
import { entryBytes, Stream, type CutReason, type OrderingRules } from './stream';
import { StreamLimitRefusals } from './stream-limit-errors';
import type { WalStreamInput } from './wal/records';

/** Everything one push needs besides the request. */
export interface PushContext {
  readonly nowMs: number;
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

/** Entries stored in one stream by a push (for tail listeners, and to undo the push). */
export interface AppendedStream {
  readonly stream: Stream;
  readonly entries: readonly LogEntry[];
  /** This push created the stream. */
  readonly created: boolean;
}

export interface InstancePushResult {
  /** What the WAL record of this push holds: the stored entries only. */
  readonly wal: WalStreamInput[];
  readonly appended: AppendedStream[];
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

  constructor(
    readonly tenant: string,
    private readonly chunkOptions: Partial<ChunkOptions>,
    private readonly census: StreamCensus,
  ) {}

  /** Drops a stream from memory (flushed and empty, or created by a push taken back). */
  removeStream(labelsText: string): void {
    if (this.streams.delete(labelsText)) this.census.count--;
  }

  private addStream(stream: Stream): void {
    this.streams.set(stream.labelsText, stream);
    this.census.count++;
  }

  /**
   * Stores a push request's entries. Refusals are collected per stream (Loki's messages);
   * other streams and entries are stored regardless.
   */
  push(req: PushRequest, ctx: PushContext): InstancePushResult {
    const wal: WalStreamInput[] = [];
    const appended: AppendedStream[] = [];
    const errors: IngestError[] = [];
    // Streams over a limit become one error, placed where the last of them stood.
    const refusals = new StreamLimitRefusals(this.tenant);
    let refusalsAt = 0;
    let entries = 0;
    let bytes = 0;
    let duplicates = 0;
    for (const ps of req.streams) {
      if (ps.entries.length === 0) continue;
      const text = ps.labelsText ?? labelsToString(ps.labels);
      let stream = this.streams.get(text);
      const created = stream === undefined;
      if (stream === undefined) {
        const over =
          this.streams.size >= ctx.streamLimit
            ? 'tenant'
            : this.census.count >= ctx.globalStreamLimit
              ? 'global'
              : null;
        if (over !== null) {
          refusals.add(over, text, ps.entries.length, bytesOf(ps.entries));
          refusalsAt = errors.length;
          continue;
        }
        stream = new Stream(this.tenant, ps.labels, this.chunkOptions, text);
        this.addStream(stream);
        ctx.onStreamCreated();
      }
      const r = stream.append(ps.entries, ctx.rules, ctx.nowMs, ctx.onCut, ctx.walSeq);
      duplicates += r.duplicates;
      if (r.stored.length > 0) {
        entries += r.stored.length;
        bytes += r.storedBytes;
        wal.push({ labelsText: stream.labelsBytes, entries: r.stored });
        appended.push({ stream, entries: r.stored, created });
      }
      if (r.refused.length > 0) {
        const ooo = r.refused[0].reason === 'entry out of order';
        const listed =
          ctx.maxReturnedErrors > 0 ? r.refused.slice(0, ctx.maxReturnedErrors) : r.refused;
        let message = '';
        for (const { entry, reason } of listed) {
          message += `entry with timestamp ${formatGoTime(entry.timestampNs)} ignored, reason: '${reason}',\n`;
        }
        message += `user '${this.tenant}', total ignored: ${r.refused.length} out of ${ps.entries.length} for stream: ${text}`;
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
    return { wal, appended, entries, bytes, duplicates, errors };
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

/** Line plus structured metadata bytes, as every other discard reason counts them. */
export function bytesOf(entries: readonly LogEntry[]): number {
  let bytes = 0;
  for (const e of entries) bytes += entryBytes(e);
  return bytes;
}
