import { AzureObjectClient, type AzureStorageConfig } from './azure-object-client';
import { ChunkStore } from './chunk-store';
import type { EmbeddedCacheConfig } from './embedded-cache';
import { FilesystemObjectClient } from './filesystem-object-client';
import type { ObjectClient } from './object-client';
import { S3ObjectClient, type S3StorageConfig } from './s3-object-client';
import type { SchemaConfig } from './schema-config';

/**
 * What opening the chunk store takes, as plain data: the server builds it from its config, and
 * a worker thread that gets a copy opens its own store over the same objects.
 */
export interface ChunkStoreSettings {
  readonly schema: SchemaConfig;
  /** The directory of the `filesystem` object store. */
  readonly filesystemDirectory: string;
  /** The `s3` object store (`storage_config.aws`); read only when the schema names `s3`. */
  readonly s3: S3StorageConfig;
  /** The `azure` object store (`storage_config.azure`); read only when the schema names `azure`. */
  readonly azure?: AzureStorageConfig;
  /** Names this process's index files (see `ChunkStoreOptions.uploader`). */
  readonly uploader: string;
  /** The chunk cache of this store (each worker thread holds its own); null for none. */
  readonly chunkCache: EmbeddedCacheConfig | null;
}

function objectClientFor(name: string, settings: ChunkStoreSettings): ObjectClient {
  switch (name) {
    case 's3':
      return new S3ObjectClient(settings.s3);
    case 'azure':
      if (settings.azure === undefined) throw new Error('object store azure: no azure settings');
      return new AzureObjectClient(settings.azure);
    case 'filesystem':
      return new FilesystemObjectClient(settings.filesystemDirectory);
    default:
      throw new Error(`object store ${name}: not supported`);
  }
}

/** One object client per object store the schema names, then the store over them. */
export function createChunkStore(settings: ChunkStoreSettings): ChunkStore {
  const objectClients: Record<string, ObjectClient> = {};
  for (const period of settings.schema.configs) {
    const name = period.object_store;
    if (objectClients[name]) continue;
    objectClients[name] = objectClientFor(name, settings);
  }
  return new ChunkStore({
    schema: settings.schema,
    objectClients,
    uploader: settings.uploader,
    chunkCache: settings.chunkCache,
  });
}
