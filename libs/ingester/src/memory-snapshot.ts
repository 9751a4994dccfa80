// The in-process ingester's streams as data a query worker thread reads as if it read them
// here: the main thread copies the matching chunks' bytes into one buffer it transfers, and
// the worker rebuilds read-only chunks from them.
import { inShard, type Labels, type Matcher, type ShardRef } from '@logsvc/api';
import { MemChunk, type SharedBlocks } from '@logsvc/chunk';
import { chunkOverlaps, type QueryableStream, type TimeRange } from './query';

/** Which of a tenant's streams, over which time range, a query worker asks memory for. */
export interface MemorySelect {
  readonly matchers: readonly Matcher[];
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly shard?: ShardRef;
}

/** Where one part of a chunk lies: which of `MemorySnapshot.buffers`, offset and length. */
export type ByteSpan = readonly [number, number, number];

/**
 * One chunk of a snapshot: a closed chunk has its blocks only, a head chunk may have both. Cut
 * blocks come as their chunk bytes (`blocks`) or as views of shared memory (`shared`).
 */
export interface ChunkSpans {
  readonly closed: boolean;
  readonly blocks: ByteSpan | null;
  readonly shared: SharedBlocks | null;
  readonly head: ByteSpan | null;
}

export interface StreamSpans {
  readonly labels: Labels;
  readonly fingerprint: number;
  /** Closed chunks oldest first, then the head chunk (only those in range). */
  readonly chunks: readonly ChunkSpans[];
}

/** The streams of one select as plain data, their chunks' bytes in transferable buffers. */
export interface MemorySnapshot {
  /** Whether an ingester answered; none was attached: the query reads nothing from memory. */
  readonly reached: boolean;
  readonly streams: readonly StreamSpans[];
  /** The chunks' bytes, in buffers no one else holds: put them in the postMessage transfer list. */
  readonly buffers: readonly ArrayBuffer[];
  /**
   * What the reader of the snapshot needs kept reachable on this thread until it is done (the
   * spilled blocks it reads from their files: see `ChunkSnapshot.retain`). Not posted: the
   * sender holds it, e.g. until the worker thread's answer.
   */
  readonly retain?: readonly object[];
}

/**
 * The in-process ingester's memory as query worker threads read it: copies of what a select
 * reaches (`snapshot`), and how much that is (`bytesInMemory`). Only where the ingester runs in
 * the process; a querier of a cluster has none.
 */
export interface IngesterMemory {
  snapshot(tenant: string, select: MemorySelect): MemorySnapshot;
  /** Uncompressed bytes held of matching streams in the range. */
  bytesInMemory(tenant: string, matchers: readonly Matcher[], range: TimeRange): number;
}

export const UNREACHED: MemorySnapshot = { reached: false, streams: [], buffers: [] };

/**
 * The chunks in `range` of the streams in `shard`, as they are now: closed chunks by their
 * flush encoding when it exists (else their blocks, copied), head chunks by `MemChunk.snapshot`.
 */
export function snapshotStreams(
  streams: readonly QueryableStream[],
  range: TimeRange,
  shard: ShardRef | undefined,
): MemorySnapshot {
  const buffers: ArrayBuffer[] = [];
  const retain: object[] = [];
  // Bytes made for this snapshot go as they are when they own their whole buffer; the flush
  // encodings of closed chunks, which the ingester keeps, are copied.
  const place = (b: Buffer | null, own: boolean): ByteSpan | null => {
    if (b === null) return null;
    const whole = own && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
    const buffer = whole ? b.buffer : new Uint8Array(b).buffer;
    buffers.push(buffer as ArrayBuffer);
    return [buffers.length - 1, 0, b.length];
  };
  const blockParts = (
    blocks: Buffer | SharedBlocks | null,
  ): { blocks: ByteSpan | null; shared: SharedBlocks | null } =>
    blocks === null || Buffer.isBuffer(blocks)
      ? { blocks: place(blocks, true), shared: null }
      : { blocks: null, shared: blocks };
  const out: StreamSpans[] = [];
  for (const stream of streams) {
    if (!inShard(stream.labels, shard)) continue;
    const chunks: ChunkSpans[] = [];
    for (const c of stream.closed) {
      if (!chunkOverlaps(c.chunk, range)) continue;
      if (c.encoded !== null) {
        chunks.push({ closed: true, blocks: place(c.encoded, false), shared: null, head: null });
      } else {
        const taken = c.chunk.snapshot();
        retain.push(...(taken.retain ?? []));
        chunks.push({ closed: true, ...blockParts(taken.blocks), head: null });
      }
    }
    if (stream.head !== null && chunkOverlaps(stream.head, range)) {
      const taken = stream.head.snapshot();
      retain.push(...(taken.retain ?? []));
      chunks.push({ closed: false, ...blockParts(taken.blocks), head: place(taken.head, true) });
    }
    if (chunks.length > 0)
      out.push({ labels: stream.labels, fingerprint: stream.fingerprint, chunks });
  }
  return { reached: true, streams: out, buffers, retain };
}

/** Read-only streams over a snapshot's bytes (no copy: chunks' blocks are views into them). */
export function snapshotToStreams(snapshot: MemorySnapshot): QueryableStream[] {
  const view = (span: ByteSpan | null): Buffer | null =>
    span === null ? null : Buffer.from(snapshot.buffers[span[0]], span[1], span[2]);
  return snapshot.streams.map((s) => {
    const closed: { chunk: MemChunk; encoded: Buffer | null }[] = [];
    let head: MemChunk | null = null;
    for (const c of s.chunks) {
      const blocks = view(c.blocks);
      const chunk = MemChunk.fromSnapshot({ blocks: blocks ?? c.shared, head: view(c.head) });
      if (c.closed) closed.push({ chunk, encoded: blocks });
      else head = chunk;
    }
    return { labels: s.labels, fingerprint: s.fingerprint, head, closed };
  });
}

/** Uncompressed bytes of the streams' chunks in `range`: what a query over them would read. */
export function bytesInRange(streams: readonly QueryableStream[], range: TimeRange): number {
  let bytes = 0;
  for (const s of streams) {
    for (const c of s.closed) if (chunkOverlaps(c.chunk, range)) bytes += c.chunk.uncompressedBytes;
    if (s.head !== null && chunkOverlaps(s.head, range)) bytes += s.head.uncompressedBytes;
  }
  return bytes;
}
