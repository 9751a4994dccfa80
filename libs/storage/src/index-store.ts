import { labelsToString } from '@logsvc/api';
import { mapConcurrent } from './concurrency';
import { ObjectNotFoundError } from './errors';
import { IndexFileCache } from './index-cache';
import { decodeIndexFile, encodeIndexFile } from './index-codec';
import { compareChunkRefs, type ChunkRef, type SeriesChunkRefs } from './index-model';
import { IndexTable } from './index-table';
import { indexFileKey, indexPrefix, indexTablePrefix, isIndexFileKey } from './key-layout';
import type { ObjectClient } from './object-client';
import type { IndexTableRef, SchemaPeriods } from './schema-config';

export interface IndexStoreOptions {
  readonly schema: SchemaPeriods;
  readonly clientFor: (objectStore: string) => ObjectClient;
  /** Names the files this process writes. */
  readonly uploader: string;
  readonly cacheBytes: number;
  readonly loadConcurrency: number;
}

/** Attempts to read a table when a compactor deletes files between our list and our get. */
const LOAD_ATTEMPTS = 3;
/** Rough memory per decoded body byte (label strings, objects, postings). */
const MEMORY_PER_BODY_BYTE = 4;

/**
 * Immutable index files per (tenant, table) on the object store: writes new files, reads and
 * caches them.
 */
export class IndexStore {
  private readonly cache: IndexFileCache;
  private readonly pending = new Map<string, Promise<IndexTable>>();

  constructor(private readonly options: IndexStoreOptions) {
    this.cache = new IndexFileCache(options.cacheBytes);
  }

  /** Writes one new index file for the table; returns its key. */
  async writeFile(
    tenant: string,
    table: IndexTableRef,
    series: readonly SeriesChunkRefs[],
  ): Promise<string> {
    const key = indexFileKey(tenant, table.name, this.options.uploader, Date.now());
    await this.options.clientFor(table.objectStore).put(key, await encodeIndexFile(series));
    return key;
  }

  /** Tables the tenant has index files in, across every object store of the schema. */
  async existingTables(tenant: string): Promise<IndexTableRef[]> {
    const out: IndexTableRef[] = [];
    const prefix = indexPrefix(tenant);
    for (const store of this.options.schema.objectStores()) {
      const listing = await this.options.clientFor(store).list(prefix, { delimiter: '/' });
      for (const p of listing.commonPrefixes) {
        const name = p.slice(prefix.length, -1);
        const ref = this.options.schema.tableByName(name);
        if (ref) out.push({ ...ref, objectStore: store });
      }
    }
    return out.sort((a, b) => a.number - b.number || (a.name < b.name ? -1 : 1));
  }

  /** Every file of the table, loaded (from cache when possible). */
  async loadTable(tenant: string, table: IndexTableRef): Promise<IndexTable[]> {
    const client = this.options.clientFor(table.objectStore);
    for (let attempt = 1; ; attempt++) {
      const keys = await this.listFiles(client, tenant, table.name);
      try {
        return await mapConcurrent(keys, this.options.loadConcurrency, (key) =>
          this.loadFile(table.objectStore, client, key),
        );
      } catch (err) {
        // Compaction deleted an input after our listing; its merged file is listed next time.
        if (err instanceof ObjectNotFoundError && attempt < LOAD_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  private async listFiles(client: ObjectClient, tenant: string, table: string): Promise<string[]> {
    const listing = await client.list(indexTablePrefix(tenant, table));
    return listing.objects.map((o) => o.key).filter(isIndexFileKey);
  }

  private loadFile(store: string, client: ObjectClient, key: string): Promise<IndexTable> {
    const ck = cacheKey(store, key);
    const cached = this.cache.get(ck);
    if (cached) return Promise.resolve(cached);
    let pending = this.pending.get(ck);
    if (!pending) {
      pending = (async () => {
        const { series, bodyBytes } = await decodeIndexFile(key, await client.get(key));
        const table = new IndexTable(key, series);
        this.cache.set(ck, table, bodyBytes * MEMORY_PER_BODY_BYTE);
        return table;
      })().finally(() => this.pending.delete(ck));
      this.pending.set(ck, pending);
    }
    return pending;
  }
}

function cacheKey(store: string, key: string): string {
  return `${store}\u0000${key}`;
}

/** Series of several files merged by label set; chunk refs de-duplicated by key and sorted. */
export function mergeSeries(files: readonly (readonly SeriesChunkRefs[])[]): SeriesChunkRefs[] {
  const bySeries = new Map<string, { s: SeriesChunkRefs; chunks: Map<string, ChunkRef> }>();
  for (const file of files) {
    for (const s of file) {
      const id = labelsToString(s.labels);
      let entry = bySeries.get(id);
      if (!entry) bySeries.set(id, (entry = { s, chunks: new Map() }));
      for (const c of s.chunks) if (!entry.chunks.has(c.key)) entry.chunks.set(c.key, c);
    }
  }
  const out: SeriesChunkRefs[] = [];
  for (const [, { s, chunks }] of [...bySeries].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  )) {
    out.push({
      labels: s.labels,
      fingerprint: s.fingerprint,
      chunks: [...chunks.values()].sort(compareChunkRefs),
    });
  }
  return out;
}
