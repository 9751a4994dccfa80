import { join } from 'node:path';
import { DeleteRequestsStore } from '@logsvc/compactor';
import type { Config } from '@logsvc/config';
import {
  type ChunkStore,
  type ChunkStoreSettings,
  createChunkStore,
  type EmbeddedCacheConfig,
} from '@logsvc/storage';

/** Injection token of the process's one `ChunkStore` (chunks + index on object storage). */
export const CHUNK_STORE = Symbol('logsvc.chunkStore');

/** The directory that holds filesystem chunks: `storage_config.filesystem.directory` or `<path_prefix>/chunks`. */
export function chunksDirectory(config: Config): string {
  return config.storage_config.filesystem.directory || join(config.common.path_prefix, 'chunks');
}

/** What opens the chunk store (here, and in the querier's query worker threads). */
export function chunkStoreSettings(config: Config, uploader: string): ChunkStoreSettings {
  return {
    schema: config.schema_config,
    filesystemDirectory: chunksDirectory(config),
    s3: config.storage_config.aws,
    azure: config.storage_config.azure,
    uploader,
    chunkCache: chunkCacheConfig(config),
  };
}

/** `chunk_store_config.chunk_cache_config.embedded_cache`, or null when it is off. */
function chunkCacheConfig(config: Config): EmbeddedCacheConfig | null {
  const embedded = config.chunk_store_config.chunk_cache_config.embedded_cache;
  if (!embedded.enabled) return null;
  return {
    maxSizeMb: embedded.max_size_mb,
    maxSizeItems: embedded.max_size_items,
    ttlMs: embedded.ttl,
  };
}

/** The chunk store of `config`'s object stores; `uploader` names the index files it writes. */
export function chunkStoreOf(config: Config, uploader: string): ChunkStore {
  return createChunkStore(chunkStoreSettings(config, uploader));
}

/**
 * The delete request records: in `compactor.delete_request_store` (an object store name of the
 * schema), by default the object store of the newest schema period, under each tenant.
 */
export function createDeleteRequestsStore(config: Config, store: ChunkStore): DeleteRequestsStore {
  const name = config.compactor.delete_request_store || store.maintenance.latestObjectStore();
  return new DeleteRequestsStore(store.maintenance.client(name));
}
