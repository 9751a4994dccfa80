import { BlockRunCache, MemChunk } from '@logsvc/chunk';

/** `querier.block_cache_mb`'s default: decoded blocks kept per thread. */
export const DEFAULT_BLOCK_CACHE_MB = 128;

/**
 * How this thread turns fetched chunk bytes into read-only chunks. The store's chunk cache
 * hands out the same Buffer for every hit, so a chunk is decoded (its meta checked, its
 * symbols decompressed; a block's checksum is checked when a reader first reads the block)
 * once per Buffer; a Buffer the chunk cache dropped is collected with its decoded chunk (the
 * memo holds it weakly). Decoded blocks are kept in one bounded cache under the chunk's object
 * key, for the next split of a query that reads them, whether or not the chunk cache still
 * holds the chunk's bytes.
 */
export class ChunkDecoder {
  private readonly decoded = new WeakMap<Buffer, MemChunk>();
  private blockCache: BlockRunCache | null;

  constructor(blockCacheMb = DEFAULT_BLOCK_CACHE_MB) {
    this.blockCache = cacheOf(blockCacheMb);
  }

  /** Sets the block cache's size (0 = none), dropping what it held. */
  configure(blockCacheMb: number): void {
    this.blockCache = cacheOf(blockCacheMb);
  }

  get blocks(): BlockRunCache | null {
    return this.blockCache;
  }

  /** `key`: the object key the bytes were read from (it names these bytes alone). */
  decode(buf: Buffer, key: string): MemChunk {
    let chunk = this.decoded.get(buf);
    if (chunk === undefined) {
      chunk = MemChunk.decode(buf, {
        blockCache: this.blockCache,
        cacheKey: key,
        checkBlocksOnRead: true,
      });
      this.decoded.set(buf, chunk);
    }
    return chunk;
  }
}

function cacheOf(mb: number): BlockRunCache | null {
  return mb > 0 ? new BlockRunCache(mb * 1024 * 1024) : null;
}

/** The decoder of this thread (each query worker thread has its own). */
export const chunkDecoder = new ChunkDecoder();
