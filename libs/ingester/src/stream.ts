import { labelsHash, labelsToString, type Labels, type LogEntry } from '@logsvc/api';
import { MemChunk, type ChunkOptions } from '@logsvc/chunk';
import type { TokenBucket } from '@logsvc/push';

export type CutReason = 'full' | 'idle' | 'max_age' | 'forced';

/** A chunk that no longer takes appends and waits to be flushed (or is retained after). */
export interface ClosedChunk {
  readonly chunk: MemChunk;
  readonly reason: CutReason;
  /** `chunk.encode()`, computed once when first needed. */
  encoded: Buffer | null;
  /** A flush operation currently holds this chunk. */
  flushing: boolean;
  /** Failed flush attempts so far. */
  failures: number;
  /** When the flush loop may try this chunk again (ms on the ingester clock). */
  retryAtMs: number;
  /** Set once the sink has stored it; the chunk is then only kept for `chunk_retain_period`. */
  flushedAtMs: number | null;
  /**
   * The newest WAL record with entries in this chunk. The chunk is not flushed before that
   * record has settled: a failed record's entries are taken back out of memory first.
   */
  readonly walSeq: number;
}

export function encodedChunk(c: ClosedChunk): Buffer {
  if (!c.encoded) c.encoded = c.chunk.encode();
  return c.encoded;
}

/** What appending a batch of entries to one stream did. */
export interface StreamAppendResult {
  /** The entries stored, in push order (the input array itself when all were stored). */
  readonly stored: readonly LogEntry[];
  readonly storedBytes: number;
  readonly duplicates: number;
  /** Entries refused by the ordering rules, with the reason text Loki gives for each. */
  readonly refused: readonly RefusedEntry[];
  readonly refusedBytes: number;
}

export interface RefusedEntry {
  readonly entry: LogEntry;
  readonly reason: string;
}

/** Most appends refuse nothing: they share this empty list. */
const NO_REFUSALS: readonly RefusedEntry[] = Object.freeze([]);

/** Ordering rules for one append; replay passes `null` to store everything it finds. */
export interface OrderingRules {
  readonly unorderedWrites: boolean;
  /** Out-of-order window: entries older than newest − window are refused (ns). */
  readonly windowNs: bigint;
  readonly formatTooFarBehind: (entryNs: bigint, cutoffNs: bigint) => string;
}

export function entryBytes(e: LogEntry): number {
  let n = e.line.length;
  for (const p of e.structuredMetadata) {
    n += Buffer.byteLength(p.name, 'utf8') + Buffer.byteLength(p.value, 'utf8');
  }
  return n;
}

/**
 * One stream of one tenant in memory: a head chunk that takes appends, closed chunks waiting
 * for (or retained after) flush, and what de-duplication and the ordering window need.
 */
export class Stream {
  readonly labelsText: string;
  readonly labelsBytes: Buffer;
  readonly fingerprint: number;
  head: MemChunk | null = null;
  /** When the head chunk got its last append (ms). */
  headLastAppendMs = 0;
  readonly closed: ClosedChunk[] = [];
  /** Highest timestamp ever stored; meaningful once `lastLine` is set. */
  newestNs = -1n;
  lastTimestampNs = 0n;
  /**
   * Where the last stored line is (null: none yet): a buffer of the head chunk, whose bytes
   * stay until the chunk's next append, which this stream makes after comparing with it. Not a
   * copy: the pushed line is a view into the whole request body.
   */
  private lastLineBytes: Buffer | null = null;
  private lastLineStart = 0;
  private lastLineLength = 0;
  /** A flush operation for this stream is queued or running. */
  flushQueued = false;
  /** The newest WAL record that stored entries in this stream (0: none since start). */
  lastWalSeq = 0;
  /** Dropped from its instance's memory: a memo that still holds it must look up again. */
  detached = false;
  /** The per-stream rate limit's bucket, once a push checked it (not after a replay). */
  rateBucket: TokenBucket | null = null;
  /** The number WAL records name this stream by, and the WAL epoch it holds in (WalSeriesSlot). */
  walRef = 0;
  walEpoch = -1;

  constructor(
    readonly tenant: string,
    readonly labels: Labels,
    private readonly chunkOptions: Partial<ChunkOptions>,
    labelsText?: string,
  ) {
    this.labelsText = labelsText ?? labelsToString(labels);
    this.labelsBytes = Buffer.from(this.labelsText, 'utf8');
    this.fingerprint = labelsHash(labels);
  }

  /** The last stored line (what de-duplication compares with), or null when none was. */
  get lastLine(): Buffer | null {
    const bytes = this.lastLineBytes;
    if (bytes === null) return null;
    return bytes.subarray(this.lastLineStart, this.lastLineStart + this.lastLineLength);
  }

  /** Sets the last stored line from outside an append (a checkpoint, a push taken back): copied. */
  set lastLine(line: Buffer | null) {
    this.lastLineBytes = line === null ? null : Buffer.from(line);
    this.lastLineStart = 0;
    this.lastLineLength = line === null ? 0 : line.length;
  }

  private isLastLine(line: Buffer): boolean {
    const n = this.lastLineLength;
    const start = this.lastLineStart;
    return n === line.length && this.lastLineBytes!.compare(line, 0, n, start, start + n) === 0;
  }

  /** Oldest and newest timestamp over all chunks in memory, or null when there are none. */
  bounds(): { minNs: bigint; maxNs: bigint } | null {
    let minNs: bigint | null = null;
    let maxNs: bigint | null = null;
    const visit = (c: MemChunk): void => {
      if (c.entryCount === 0) return;
      if (minNs === null || c.minTimeNs < minNs) minNs = c.minTimeNs;
      if (maxNs === null || c.maxTimeNs > maxNs) maxNs = c.maxTimeNs;
    };
    for (const c of this.closed) visit(c.chunk);
    if (this.head) visit(this.head);
    return minNs === null || maxNs === null ? null : { minNs, maxNs };
  }

  /** No chunk of any kind is left: the stream can be dropped from memory. */
  get isEmpty(): boolean {
    return this.head === null && this.closed.length === 0;
  }

  /**
   * Reads what an append reads first besides the head chunk: this stream, its newest
   * timestamps and its rate bucket; returns something of it (see `Instance.warmStreams`).
   */
  warm(): number {
    return (this.newestNs > this.lastTimestampNs ? 1 : 0) + (this.rateBucket?.warm() ?? 0);
  }

  /**
   * Appends entries in order, applying Loki's rules: an entry equal in timestamp and line to
   * the previous stored one is dropped; with unordered writes an entry older than the newest
   * minus the window is refused (without, any entry older than the newest is); a chunk that
   * reports itself full is closed and a new head started. `walSeq` is the WAL record the
   * stored entries go to (0 on replay and with the WAL off).
   */
  append(
    entries: readonly LogEntry[],
    rules: OrderingRules | null,
    nowMs: number,
    onCut: (reason: CutReason) => void,
    walSeq = 0,
  ): StreamAppendResult {
    let stored: LogEntry[] | null = null;
    let storedBytes = 0;
    let duplicates = 0;
    let refused: RefusedEntry[] | null = null;
    let refusedBytes = 0;
    let lastTs = this.lastTimestampNs;
    // The last line stored by this call, once there is one; before, `lastLineBytes` holds it.
    let lastLine: Buffer | null = null;
    let lastIn: MemChunk | null = null;
    let hasLast = this.lastLineBytes !== null;
    let newest = this.newestNs;
    let cutoff = 0n;
    let cutoffOf: bigint | null = null;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const ts = e.timestampNs;
      let skip = false;
      // Newer than anything stored: neither a copy nor out of order, and the chunk need not
      // look at its blocks' bounds. The common case, and it reads one stored bigint, not five.
      const aboveAll = hasLast && ts > newest;
      if (aboveAll) {
        // Stored below.
      } else if (
        hasLast &&
        ts === lastTs &&
        (lastLine === null ? this.isLastLine(e.line) : lastLine.equals(e.line))
      ) {
        duplicates++;
        skip = true;
      } else if (rules && hasLast && ts < newest) {
        // Only an entry older than the newest can be refused.
        if (rules.unorderedWrites) {
          // Recomputed only when `newest` moved: a bigint subtraction allocates.
          if (cutoffOf !== newest) {
            cutoffOf = newest;
            cutoff = newest - rules.windowNs;
          }
          if (ts < cutoff) {
            (refused ??= []).push({ entry: e, reason: rules.formatTooFarBehind(ts, cutoff) });
            refusedBytes += entryBytes(e);
            skip = true;
          }
        } else {
          (refused ??= []).push({ entry: e, reason: 'entry out of order' });
          refusedBytes += entryBytes(e);
          skip = true;
        }
      }
      if (!skip) {
        if (this.head === null) this.head = new MemChunk(this.chunkOptions);
        const head = this.head;
        // The chunk measures the entry (line + metadata bytes) as it stores it.
        const bytesBefore = head.uncompressedBytes;
        if (!head.append(ts, e.line, e.structuredMetadata, aboveAll)) {
          duplicates++;
          skip = true;
        } else {
          if (walSeq > this.lastWalSeq) this.lastWalSeq = walSeq;
          if (aboveAll || !hasLast || ts > newest) newest = ts;
          lastTs = ts;
          lastLine = e.line;
          lastIn = head;
          hasLast = true;
          storedBytes += head.uncompressedBytes - bytesBefore;
          if (this.head.isFull()) this.cutHead('full', nowMs, onCut);
        }
      }
      if (skip && stored === null) stored = entries.slice(0, i) as LogEntry[];
      else if (!skip && stored !== null) stored.push(e);
    }
    if (storedBytes > 0) this.headLastAppendMs = nowMs;
    if (lastLine !== null && lastIn !== null) {
      this.lastLineBytes = lastIn.lastLineBuffer;
      this.lastLineStart = lastIn.lastLineStart;
      this.lastLineLength = lastLine.length;
    }
    this.lastTimestampNs = lastTs;
    this.newestNs = newest;
    return {
      stored: stored ?? entries,
      storedBytes,
      duplicates,
      refused: refused ?? NO_REFUSALS,
      refusedBytes,
    };
  }

  /** Closes the head chunk (if it has entries) so it gets flushed. */
  cutHead(reason: CutReason, nowMs: number, onCut: (reason: CutReason) => void): void {
    const head = this.head;
    if (!head) return;
    this.head = null;
    if (head.entryCount === 0) return;
    head.close();
    this.closed.push({
      chunk: head,
      reason,
      encoded: null,
      flushing: false,
      failures: 0,
      retryAtMs: nowMs,
      flushedAtMs: null,
      walSeq: this.lastWalSeq,
    });
    onCut(reason);
  }

  /** Adds a chunk restored from a checkpoint as closed (awaiting flush). */
  restoreClosed(chunk: MemChunk, encoded: Buffer, nowMs: number): void {
    this.closed.push({
      chunk,
      reason: 'forced',
      encoded,
      flushing: false,
      failures: 0,
      retryAtMs: nowMs,
      flushedAtMs: null,
      walSeq: 0,
    });
  }

  /** Chunks that still need flushing (not flushed yet). */
  unflushed(): ClosedChunk[] {
    return this.closed.filter((c) => c.flushedAtMs === null);
  }
}
