import { join } from 'node:path';
import { DeleteRequestsStore } from '@logsvc/compactor';
import type { Config } from '@logsvc/config';
import {
  ChunkStore,
  FilesystemObjectClient,
  S3ObjectClient,
  type ObjectClient,
} from '@logsvc/storage';

/** Injection token of the process's one `ChunkStore` (chunks + index on object storage). */
export const CHUNK_STORE = Symbol('logsvc.chunkStore');

/** The directory that holds filesystem chunks: `storage_config.filesystem.directory` or `<path_prefix>/chunks`. */
export function chunksDirectory(config: Config): string {
  return config.storage_config.filesystem.directory || join(config.common.path_prefix, 'chunks');
}

/** Builds one object client per object store the schema names, then the store over them. */
export function createChunkStore(config: Config, uploader: string): ChunkStore {
  const objectClients: Record<string, ObjectClient> = {};
  for (const period of config.schema_config.configs) {
    const name = period.object_store;
    if (objectClients[name]) continue;
    objectClients[name] =
      name === 's3'
        ? new S3ObjectClient(config.storage_config.aws)
        : new FilesystemObjectClient(chunksDirectory(config));
  }
  return new ChunkStore({ schema: config.schema_config, objectClients, uploader });
}

/**
 * The delete request records: in `compactor.delete_request_store` (an object store name of the
 * schema), by default the object store of the newest schema period, under each tenant.
 */
export function createDeleteRequestsStore(config: Config, store: ChunkStore): DeleteRequestsStore {
  const name = config.compactor.delete_request_store || store.maintenance.latestObjectStore();
  return new DeleteRequestsStore(store.maintenance.client(name));
}
