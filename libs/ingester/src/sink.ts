import type { Labels } from '@logsvc/api';

/** One encoded chunk handed to storage on flush. */
export interface FlushedChunk {
  readonly labels: Labels;
  /** Timestamp of the chunk's oldest and newest entry (ns, both inclusive). */
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly entries: number;
  readonly uncompressedSize: number;
  /** `MemChunk.encode()`: decodes back with `MemChunk.decode`. */
  readonly data: Buffer;
}

/**
 * Where flushed chunks go; the storage lib's ChunkStore has this method. It must resolve only
 * once the chunks (and their index entries) are durable.
 */
export interface ChunkSink {
  putChunks(tenant: string, chunks: FlushedChunk[]): Promise<void>;
}
