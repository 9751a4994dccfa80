/** Test helpers: a chunk store on the filesystem, chunks to put in it. Test-only: not built. */
import { join } from 'node:path';
import { parseConfig } from '@logsvc/config';
import type { Labels } from '@logsvc/api';
import type { MemChunk } from '@logsvc/chunk';
import {
  ChunkStore,
  type ChunkStoreOptions,
  type ChunkStoreSettings,
  type ChunkToStore,
  FilesystemObjectClient,
} from '@logsvc/storage';

/** The options of a chunk store under `dir`, as the server builds them from its config. */
export function filesystemStoreOptions(dir: string): ChunkStoreOptions {
  const config = parseConfig({ common: { path_prefix: dir } });
  const client = new FilesystemObjectClient(join(dir, 'chunks'));
  const objectClients = Object.fromEntries(
    config.schema_config.configs.map((p) => [p.object_store, client]),
  );
  return { schema: config.schema_config, objectClients, uploader: 'test' };
}

/** The same store as plain settings, as a query worker thread opens it. */
export function filesystemStoreSettings(dir: string): ChunkStoreSettings {
  const config = parseConfig({ common: { path_prefix: dir } });
  return {
    schema: config.schema_config,
    filesystemDirectory: join(dir, 'chunks'),
    s3: config.storage_config.aws,
    uploader: 'test',
    chunkCache: null,
  };
}

/** A chunk store on the filesystem under `dir`. */
export function filesystemStore(dir: string): ChunkStore {
  return new ChunkStore(filesystemStoreOptions(dir));
}

/** A chunk built in memory, as `ChunkStore.putChunks` takes it. */
export function toStoredChunk(labels: Labels, chunk: MemChunk): ChunkToStore {
  return {
    labels,
    fromNs: chunk.minTimeNs,
    throughNs: chunk.maxTimeNs,
    entries: chunk.entryCount,
    uncompressedSize: chunk.uncompressedBytes,
    data: chunk.encode(),
  };
}
