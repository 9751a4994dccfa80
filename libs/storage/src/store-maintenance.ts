import { mapConcurrent } from './concurrency';
import { decodeIndexFile, encodeIndexFile } from './index-codec';
import type { ChunkRef, SeriesChunkRefs } from './index-model';
import type { IndexStore } from './index-store';
import { chunksPrefix, indexFileKey, indexTablePrefix, isIndexFileKey } from './key-layout';
import type { ObjectClient } from './object-client';
import type { IndexTableRef, SchemaPeriods } from './schema-config';
import { assertSafeTenant, isSafeTenant } from './tenant';

/** One index file of a table, decoded. */
export interface IndexFileContents {
  readonly key: string;
  readonly series: readonly SeriesChunkRefs[];
}

export interface StoreMaintenanceOptions {
  readonly schema: SchemaPeriods;
  readonly index: IndexStore;
  readonly clientFor: (objectStore: string) => ObjectClient;
  readonly concurrency: number;
}

const NS_PER_MS = 1_000_000n;

/**
 * What the compactor does to the store besides reading it: lists tenants and index files,
 * writes a merged index file, deletes index files and chunk objects, and stores a chunk object
 * without indexing it (a rewritten chunk is indexed by the merged file that replaces it).
 */
export class StoreMaintenance {
  constructor(private readonly options: StoreMaintenanceOptions) {}

  /** Tenants with objects in any object store of the schema (first key segments). */
  async tenants(): Promise<string[]> {
    const out = new Set<string>();
    for (const store of this.options.schema.objectStores()) {
      const listing = await this.options.clientFor(store).list('', { delimiter: '/' });
      for (const p of listing.commonPrefixes) {
        const tenant = p.slice(0, -1);
        if (isSafeTenant(tenant)) out.add(tenant);
      }
    }
    return [...out].sort();
  }

  /** The tenant's index tables, in time order. */
  tables(tenant: string): Promise<IndexTableRef[]> {
    assertSafeTenant(tenant);
    return this.options.index.existingTables(tenant);
  }

  /** Every index file of a table, decoded (not cached: the compactor reads each once). */
  async readTable(tenant: string, table: IndexTableRef): Promise<IndexFileContents[]> {
    assertSafeTenant(tenant);
    const client = this.options.clientFor(table.objectStore);
    const listing = await client.list(indexTablePrefix(tenant, table.name));
    const keys = listing.objects.map((o) => o.key).filter(isIndexFileKey);
    return mapConcurrent(keys, this.options.concurrency, async (key) => ({
      key,
      series: (await decodeIndexFile(key, await client.get(key))).series,
    }));
  }

  /** Writes one new index file named after `uploader`; returns its key. */
  async writeIndexFile(
    tenant: string,
    table: IndexTableRef,
    uploader: string,
    series: readonly SeriesChunkRefs[],
  ): Promise<string> {
    assertSafeTenant(tenant);
    const key = indexFileKey(tenant, table.name, uploader, Date.now());
    await this.options.clientFor(table.objectStore).put(key, await encodeIndexFile(series));
    return key;
  }

  async deleteIndexFile(tenant: string, table: IndexTableRef, key: string): Promise<void> {
    assertSafeTenant(tenant);
    if (!key.startsWith(indexTablePrefix(tenant, table.name))) {
      throw new Error(`index file ${key} is not in table ${table.name} of tenant ${tenant}`);
    }
    await this.options.clientFor(table.objectStore).delete(key);
  }

  /** The object store a chunk starting at `fromNs` lives in. */
  chunkStoreName(fromNs: bigint): string {
    return this.options.schema.periodAt(Number(fromNs / NS_PER_MS)).object_store;
  }

  /** Deletes a chunk object (missing is fine). */
  async deleteChunk(tenant: string, store: string, key: string): Promise<void> {
    assertSafeTenant(tenant);
    if (!key.startsWith(chunksPrefix(tenant))) {
      throw new Error(`chunk ${key} does not belong to tenant ${tenant}`);
    }
    await this.options.clientFor(store).delete(key);
  }

  /** Whether a chunk object exists. */
  async chunkExists(ref: ChunkRef): Promise<boolean> {
    const client = this.options.clientFor(this.chunkStoreName(ref.fromNs));
    if (client.exists) return client.exists(ref.key);
    try {
      await client.get(ref.key);
      return true;
    } catch {
      return false;
    }
  }

  /** The object client of an object store of the schema. */
  client(store: string): ObjectClient {
    return this.options.clientFor(store);
  }

  /** The object store of the newest schema period (where tenant-wide records go). */
  latestObjectStore(): string {
    return this.options.schema.periodAt(Number.MAX_SAFE_INTEGER).object_store;
  }
}
