import { join } from 'node:path';
import { type Matcher, labelsToString } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { parseConfig } from '@logsvc/config';
import { ChunkStore, FilesystemObjectClient, type ObjectClient } from '@logsvc/storage';

export interface StoredEntry {
  /** The series' labels as `{a="b", ...}`. */
  readonly labels: string;
  readonly timestampNs: bigint;
  readonly line: string;
}

/**
 * Every entry a stopped server left in its object store (the filesystem store under
 * `<dataDir>/chunks`, default schema), read with the storage and chunk libraries the way a
 * querier reads flushed data. Entries duplicated across chunks appear more than once.
 */
export async function readStoredEntries(
  dataDir: string,
  tenant: string,
  matchers: readonly Matcher[],
  fromNs: bigint,
  throughNs: bigint,
): Promise<StoredEntry[]> {
  const config = parseConfig({ common: { path_prefix: dataDir } });
  const client = new FilesystemObjectClient(join(dataDir, 'chunks'));
  const store = new ChunkStore({
    schema: config.schema_config,
    objectClients: { filesystem: client },
  });
  const series = await store.getChunkRefs(tenant, matchers, fromNs, throughNs);
  const out: StoredEntry[] = [];
  for (const s of series) {
    const labels = labelsToString(s.labels);
    const chunks = await store.fetchChunks(tenant, s.chunks);
    for (const bytes of chunks) {
      const cursor = MemChunk.decode(bytes).iterator(fromNs, throughNs + 1n, 'forward');
      while (cursor.next())
        out.push({ labels, timestampNs: cursor.timestampNs, line: cursor.line.toString('utf8') });
    }
  }
  return out;
}

/**
 * Every line of every chunk object of `tenant` in an object store (any ObjectClient: the
 * filesystem store, an S3 bucket), decoded from the objects themselves, not through the index:
 * what is still stored, whether or not the index still points to it. Sorted.
 */
export async function linesInChunkObjects(
  client: ObjectClient,
  tenant = 'fake',
): Promise<string[]> {
  const out: string[] = [];
  for (const { key } of (await client.list(`${tenant}/chunks/`)).objects) {
    const cursor = MemChunk.decode(await client.get(key)).iterator(0n, (1n << 63n) - 1n, 'forward');
    while (cursor.next()) out.push(cursor.line.toString('utf8'));
  }
  return out.sort();
}
