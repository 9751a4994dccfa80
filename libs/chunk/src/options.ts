import { DEFAULT_CONFIG } from '@logsvc/config';
import type { BlockSpill } from './block-spill';

export type ChunkEncoding = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

export interface ChunkOptions {
  encoding: ChunkEncoding;
  /** Uncompressed bytes (line bytes plus structured metadata bytes) at which the head is cut. */
  blockSize: number;
  /** Compressed bytes at which the chunk is full; 0 = no size target (full at 10 blocks). */
  targetSize: number;
  /** Where compressed cut blocks go out of memory (null: they stay in memory). */
  spill: BlockSpill | null;
}

/** The ingester's chunk settings at their defaults, taken from @logsvc/config. */
export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = Object.freeze({
  encoding: DEFAULT_CONFIG.ingester.chunk_encoding,
  blockSize: DEFAULT_CONFIG.ingester.chunk_block_size,
  targetSize: DEFAULT_CONFIG.ingester.chunk_target_size,
  spill: null,
});

export const CHUNK_ENCODINGS: readonly ChunkEncoding[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];

/** Loki's fallback when no target size is set: a chunk holds this many blocks. */
export const BLOCKS_PER_CHUNK_WITHOUT_TARGET = 10;

export class ChunkOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
  }
}

export function resolveChunkOptions(opts: Partial<ChunkOptions> = {}): ChunkOptions {
  const out: ChunkOptions = {
    encoding: opts.encoding ?? DEFAULT_CHUNK_OPTIONS.encoding,
    blockSize: opts.blockSize ?? DEFAULT_CHUNK_OPTIONS.blockSize,
    targetSize: opts.targetSize ?? DEFAULT_CHUNK_OPTIONS.targetSize,
    spill: opts.spill ?? null,
  };
  if (!CHUNK_ENCODINGS.includes(out.encoding)) {
    throw new ChunkOptionsError(
      `unknown chunk encoding "${String(out.encoding)}" (want one of ${CHUNK_ENCODINGS.join(', ')})`,
    );
  }
  if (!Number.isSafeInteger(out.blockSize) || out.blockSize <= 0) {
    throw new ChunkOptionsError(`chunk blockSize must be a positive integer, got ${out.blockSize}`);
  }
  if (!Number.isSafeInteger(out.targetSize) || out.targetSize < 0) {
    throw new ChunkOptionsError(`chunk targetSize must be >= 0, got ${out.targetSize}`);
  }
  return out;
}
