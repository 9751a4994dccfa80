import type { Labels } from '@logsvc/api';

/** Where one chunk lives and what it holds, as the index records it. */
export interface ChunkRef {
  /** Timestamp of the first entry, ns since the epoch. */
  readonly fromNs: bigint;
  /** Timestamp of the last entry (inclusive), ns since the epoch. */
  readonly throughNs: bigint;
  readonly entries: number;
  /** Stored (compressed) bytes: the object's size. */
  readonly size: number;
  readonly uncompressedSize: number;
  /** Object key of the chunk. */
  readonly key: string;
  /** CRC-32 (IEEE) of the object's bytes. */
  readonly checksum: number;
}

/** One series (stream) and its chunks. */
export interface SeriesChunkRefs {
  readonly labels: Labels;
  /** 16 hex digits; see seriesFingerprint. */
  readonly fingerprint: string;
  readonly chunks: readonly ChunkRef[];
}

export function overlaps(ref: ChunkRef, fromNs: bigint, throughNs: bigint): boolean {
  return ref.fromNs <= throughNs && ref.throughNs >= fromNs;
}

export function compareChunkRefs(a: ChunkRef, b: ChunkRef): number {
  if (a.fromNs !== b.fromNs) return a.fromNs < b.fromNs ? -1 : 1;
  if (a.throughNs !== b.throughNs) return a.throughNs < b.throughNs ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
