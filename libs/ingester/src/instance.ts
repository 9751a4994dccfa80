import { labelsToString, parseLabels, type LogEntry, type PushRequest } from '@logsvc/api';
import type { ChunkOptions } from '@logsvc/chunk';
import { IngestError } from './errors';
import { formatGoTime } from '@logsvc/gocompat';
import { entryBytes, Stream, type CutReason, type OrderingRules } from './stream';
import type { WalStreamInput } from './wal/records';

/** Everything one push needs besides the request. */
export interface PushContext {
  readonly nowMs: number;
  /** Streams this tenant may hold; Infinity when unlimited. */
  readonly streamLimit: number;
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

/** One tenant's streams in memory, keyed by the canonical text of their labels. */
export class Instance {
  readonly streams = new Map<string, Stream>();

  constructor(
    readonly tenant: string,
    private readonly chunkOptions: Partial<ChunkOptions>,
  ) {}

  /**
   * Stores a push request's entries. Refusals are collected per stream (Loki's messages);
   * other streams and entries are stored regardless.
   */
  push(req: PushRequest, ctx: PushContext): InstancePushResult {
    const wal: WalStreamInput[] = [];
    const appended: AppendedStream[] = [];
    const errors: IngestError[] = [];
    let entries = 0;
    let bytes = 0;
    let duplicates = 0;
    for (const ps of req.streams) {
      if (ps.entries.length === 0) continue;
      const text = labelsToString(ps.labels);
      let stream = this.streams.get(text);
      const created = stream === undefined;
      if (stream === undefined) {
        if (this.streams.size >= ctx.streamLimit) {
          errors.push(streamLimitError(this.tenant, text, ps.entries));
          continue;
        }
        stream = new Stream(this.tenant, ps.labels, this.chunkOptions, text);
        this.streams.set(text, stream);
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
      this.streams.set(stream.labelsText, stream);
    }
    return stream;
  }
}

function streamLimitError(tenant: string, labelsText: string, entries: readonly LogEntry[]) {
  let bytes = 0;
  // Line plus structured metadata bytes, as every other discard reason counts them.
  for (const e of entries) bytes += entryBytes(e);
  return new IngestError(
    'limit',
    'stream_limit',
    `Maximum active stream limit exceeded when trying to create stream ${labelsText}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: '${tenant}'`,
    entries.length,
    bytes,
  );
}
