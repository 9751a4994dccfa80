import { hostname } from 'node:os';
import { labelsToString, type CacheStats, type Labels, type Matcher } from '@logsvc/api';
import { ChunkCache } from './chunk-cache';
import { mapConcurrent } from './concurrency';
import type { EmbeddedCacheConfig } from './embedded-cache';
import { ChunkChecksumError, StorageError } from './errors';
import { overlaps, type ChunkRef, type SeriesChunkRefs } from './index-model';
import type { IndexReader } from './index-reader';
import { IndexStore, mergeSeries } from './index-store';
import type { IndexTable } from './index-table';
import { IndexWriteBatcher } from './index-write-batcher';
import { chunkKey, chunksPrefix, sanitizeUploader } from './key-layout';
import type { ObjectClient } from './object-client';
import { SchemaPeriods, type IndexTableRef, type SchemaConfig } from './schema-config';
import { chunkChecksum, seriesFingerprint } from './series-identity';
import { StoreMaintenance } from './store-maintenance';
import { assertSafeTenant } from './tenant';

/** An encoded chunk handed over by the ingester's flush: opaque bytes plus what it holds. */
export interface ChunkToStore {
  readonly labels: Labels;
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly entries: number;
  readonly uncompressedSize: number;
  readonly data: Buffer;
}

export interface ChunkStoreOptions {
  readonly schema: SchemaConfig;
  /** One client per `object_store` name used in the schema. */
  readonly objectClients: Readonly<Record<string, ObjectClient>>;
  /** Names this process's index files (e.g. the ingester instance id); default: host name. */
  readonly uploader?: string;
  /** Memory bound of the loaded-index cache; default 64 MiB. */
  readonly indexCacheBytes?: number;
  /** Parallel object reads/writes per call; default 8. */
  readonly concurrency?: number;
  /** The chunk cache that {@link ChunkStore.fetchChunks} reads through; default none. */
  readonly chunkCache?: EmbeddedCacheConfig | null;
}

/** The index/stats answer. `bytes` counts uncompressed bytes, as Loki's does. */
export interface IndexStats {
  streams: number;
  chunks: number;
  entries: number;
  bytes: number;
}

/** Per-series sums over the chunks overlapping a range, for index/volume. */
export interface SeriesVolume {
  readonly labels: Labels;
  readonly bytes: number;
  readonly entries: number;
  readonly chunks: number;
}

const NS_PER_MS = 1_000_000n;
/** A chunk indexed in more tables than this is refused (chunks span hours, not weeks). */
const MAX_TABLES_PER_CHUNK = 32;

interface SeriesAcc {
  labels: Labels;
  fingerprint: string;
  chunks: Map<string, ChunkRef>;
}

/**
 * Chunks and their index on object storage, per tenant. Writes chunk objects first and the
 * index file after, so an index never points at a missing chunk. Everything it knows lives in
 * the object store: a new instance over the same store reads all earlier writes.
 */
export class ChunkStore implements IndexReader {
  private readonly schema: SchemaPeriods;
  private readonly index: IndexStore;
  private readonly indexWrites = new IndexWriteBatcher(async (tenant, table, files) => {
    await this.index.writeFile(tenant, table, mergeSeries(files));
  });
  private readonly concurrency: number;
  private readonly chunkCache: ChunkCache | null;
  /** The compactor's access: tenants, whole index files, deleting objects. */
  readonly maintenance: StoreMaintenance;

  constructor(private readonly options: ChunkStoreOptions) {
    this.schema = new SchemaPeriods(options.schema);
    for (const store of this.schema.objectStores()) {
      if (!options.objectClients[store]) {
        throw new StorageError(
          `schema_config uses object_store "${store}" but no client is configured for it`,
        );
      }
    }
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.chunkCache = options.chunkCache ? new ChunkCache(options.chunkCache) : null;
    this.index = new IndexStore({
      schema: this.schema,
      clientFor: (store) => this.clientFor(store),
      uploader: sanitizeUploader(options.uploader ?? hostname()),
      cacheBytes: options.indexCacheBytes ?? 64 * 1024 * 1024,
      loadConcurrency: this.concurrency,
    });
    this.maintenance = new StoreMaintenance({
      schema: this.schema,
      index: this.index,
      clientFor: (store) => this.clientFor(store),
      concurrency: this.concurrency,
    });
  }

  /**
   * Stores chunk objects without indexing them; returns their refs in input order. The
   * compactor indexes a rewritten chunk in the merged index file that replaces the old one.
   */
  async putChunkObjects(tenant: string, chunks: readonly ChunkToStore[]): Promise<ChunkRef[]> {
    assertSafeTenant(tenant);
    const prepared = chunks.map((c, i) => this.prepare(tenant, c, i));
    await mapConcurrent(prepared, this.concurrency, ({ ref, data }) =>
      this.clientFor(this.storeAt(ref.fromNs)).put(ref.key, data),
    );
    return prepared.map((p) => p.ref);
  }

  /**
   * The chunk format (`schema_config` period `chunk_format`) of chunks starting at `fromNs`:
   * what a flush should encode them in before `putChunks`. Default `blocks`.
   */
  chunkFormatAt(fromNs: bigint): string {
    return this.schema.periodAt(Number(fromNs / NS_PER_MS)).chunk_format ?? 'blocks';
  }

  /** Stores chunks, then one new index file per table they touch. Returns refs in input order. */
  async putChunks(tenant: string, chunks: readonly ChunkToStore[]): Promise<ChunkRef[]> {
    assertSafeTenant(tenant);
    if (chunks.length === 0) return [];
    const prepared = chunks.map((c, i) => this.prepare(tenant, c, i));
    await mapConcurrent(prepared, this.concurrency, ({ ref, data }) =>
      this.clientFor(this.storeAt(ref.fromNs)).put(ref.key, data),
    );
    const byTable = new Map<string, { table: IndexTableRef; series: Map<string, SeriesAcc> }>();
    for (const { ref, labels, fingerprint, tables } of prepared) {
      for (const table of tables) {
        const id = `${table.objectStore}/${table.name}`;
        let t = byTable.get(id);
        if (!t) byTable.set(id, (t = { table, series: new Map() }));
        const sid = labelsToString(labels);
        let s = t.series.get(sid);
        if (!s) t.series.set(sid, (s = { labels, fingerprint, chunks: new Map() }));
        s.chunks.set(ref.key, ref);
      }
    }
    // Concurrent puts of the same table share index files (see IndexWriteBatcher).
    await Promise.all(
      [...byTable.values()].map(({ table, series }) =>
        this.indexWrites.add(tenant, table, [...series.values()].map(toSeries)),
      ),
    );
    return prepared.map((p) => p.ref);
  }

  /** Series the matchers select, each with its chunk refs overlapping [fromNs, throughNs]. */
  async getChunkRefs(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesChunkRefs[]> {
    const found = await this.collect(tenant, matchers, fromNs, throughNs);
    return mergeSeries([[...found.values()].map(toSeries)]);
  }

  /** One chunk's bytes from the object store (never the cache), verified against the size and
   * CRC-32 in its ref. */
  async fetchChunk(tenant: string, ref: ChunkRef): Promise<Buffer> {
    this.checkOwner(tenant, ref);
    const data = await this.clientFor(this.storeAt(ref.fromNs)).get(ref.key);
    if (data.length !== ref.size) {
      throw new ChunkChecksumError(ref.key, `size ${data.length}, index says ${ref.size}`);
    }
    const crc = chunkChecksum(data);
    if (crc !== ref.checksum) {
      throw new ChunkChecksumError(ref.key, `crc32 ${hex(crc)}, index says ${hex(ref.checksum)}`);
    }
    return data;
  }

  /**
   * Several chunks for a query, through the chunk cache when there is one, with at most
   * `concurrency` object reads in flight; results in input order. The cache's counters are
   * added to `cacheStats` (Loki's `stats.cache.chunk`).
   */
  async fetchChunks(
    tenant: string,
    refs: readonly ChunkRef[],
    concurrency = this.concurrency,
    cacheStats?: CacheStats,
  ): Promise<Buffer[]> {
    const load = (ref: ChunkRef): Promise<Buffer> => this.fetchChunk(tenant, ref);
    if (this.chunkCache === null) return mapConcurrent(refs, concurrency, load);
    // The key check happens before any cache lookup: a key of another tenant is refused, not
    // served from the cache.
    for (const ref of refs) this.checkOwner(tenant, ref);
    return this.chunkCache.fetch(refs, concurrency, load, cacheStats);
  }

  private checkOwner(tenant: string, ref: ChunkRef): void {
    assertSafeTenant(tenant);
    if (!ref.key.startsWith(chunksPrefix(tenant))) {
      throw new StorageError(`chunk ${ref.key} does not belong to tenant ${tenant}`);
    }
  }

  /** Label names of series with data in range (selected by `matchers` when given), sorted. */
  async labelNames(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[] = [],
  ): Promise<string[]> {
    const names = new Set<string>();
    if (matchers.length === 0) {
      await this.eachFile(tenant, fromNs, throughNs, (file) => {
        if (file.within(fromNs, throughNs)) {
          for (const n of file.labelNames()) names.add(n);
          return;
        }
        for (const s of file.series) {
          if (s.chunks.some((c) => overlaps(c, fromNs, throughNs)))
            for (const p of s.labels) names.add(p.name);
        }
      });
    } else {
      for (const s of (await this.collect(tenant, matchers, fromNs, throughNs)).values()) {
        for (const p of s.labels) names.add(p.name);
      }
    }
    return [...names].sort();
  }

  /** Values of label `name` in range (on series selected by `matchers` when given), sorted. */
  async labelValues(
    tenant: string,
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[] = [],
  ): Promise<string[]> {
    const values = new Set<string>();
    const add = (labels: Labels): void => {
      for (const p of labels) if (p.name === name) values.add(p.value);
    };
    if (matchers.length === 0) {
      await this.eachFile(tenant, fromNs, throughNs, (file) => {
        if (file.within(fromNs, throughNs)) {
          for (const v of file.labelValues(name)) values.add(v);
          return;
        }
        for (const s of file.series)
          if (s.chunks.some((c) => overlaps(c, fromNs, throughNs))) add(s.labels);
      });
    } else {
      for (const s of (await this.collect(tenant, matchers, fromNs, throughNs)).values())
        add(s.labels);
    }
    return [...values].sort();
  }

  /** Distinct label sets selected by any of the matcher lists (none: all series), sorted. */
  async series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    const lists = matchersList.length === 0 ? [[]] : matchersList;
    const out = new Map<string, Labels>();
    for (const matchers of lists) {
      for (const [id, s] of await this.collect(tenant, matchers, fromNs, throughNs))
        out.set(id, s.labels);
    }
    return [...out].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, l]) => l);
  }

  /** Counts over the chunks overlapping the range (whole chunks, each counted once). */
  async stats(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<IndexStats> {
    const out: IndexStats = { streams: 0, chunks: 0, entries: 0, bytes: 0 };
    for (const s of await this.overlappingSeries(tenant, matchers, fromNs, throughNs)) {
      out.streams++;
      out.chunks += s.chunks.length;
      for (const c of s.chunks) {
        out.entries += c.entries;
        out.bytes += c.uncompressedSize;
      }
    }
    return out;
  }

  /**
   * Per selected series: uncompressed bytes, entries and chunks overlapping the range. As Loki's
   * TSDB index (`ChunkStats.AddChunk`), a chunk partly in the range counts the share of its
   * bytes and entries that its time span in the range is (Loki's `GetFactorOfTime`), so the
   * buckets of `volume_range` split a chunk's bytes instead of each counting all of them.
   */
  async volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesVolume[]> {
    const out: SeriesVolume[] = [];
    for (const s of await this.overlappingSeries(tenant, matchers, fromNs, throughNs)) {
      let bytes = 0;
      let entries = 0;
      for (const c of s.chunks) {
        const factor = timeFactor(fromNs, throughNs, c.fromNs, c.throughNs);
        bytes += Math.trunc(c.uncompressedSize * factor);
        entries += Math.trunc(c.entries * factor);
      }
      out.push({ labels: s.labels, bytes, entries, chunks: s.chunks.length });
    }
    return out;
  }

  private async overlappingSeries(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ) {
    return mergeSeries([
      [...(await this.collect(tenant, matchers, fromNs, throughNs)).values()].map(toSeries),
    ]);
  }

  /** Index tables the tenant has files in. */
  async listIndexTables(tenant: string): Promise<string[]> {
    assertSafeTenant(tenant);
    return [...new Set((await this.index.existingTables(tenant)).map((t) => t.name))];
  }

  private prepare(tenant: string, c: ChunkToStore, i: number) {
    const where = `putChunks: chunk ${i}`;
    if (
      typeof c.fromNs !== 'bigint' ||
      typeof c.throughNs !== 'bigint' ||
      c.fromNs < 0n ||
      c.throughNs < c.fromNs
    ) {
      throw new StorageError(`${where}: needs 0 <= fromNs <= throughNs (bigint nanoseconds)`);
    }
    for (const [field, v] of [
      ['entries', c.entries],
      ['uncompressedSize', c.uncompressedSize],
    ] as const) {
      if (!Number.isSafeInteger(v) || v < 0)
        throw new StorageError(`${where}: ${field} must be a non-negative integer`);
    }
    if (!Buffer.isBuffer(c.data)) throw new StorageError(`${where}: data must be a Buffer`);
    const tables = this.schema.tablesInRange(
      Number(c.fromNs / NS_PER_MS),
      Number(c.throughNs / NS_PER_MS),
    );
    if (tables.length > MAX_TABLES_PER_CHUNK) {
      throw new StorageError(
        `${where}: spans ${tables.length} index periods (at most ${MAX_TABLES_PER_CHUNK})`,
      );
    }
    const fingerprint = seriesFingerprint(c.labels);
    const checksum = chunkChecksum(c.data);
    const ref: ChunkRef = {
      fromNs: c.fromNs,
      throughNs: c.throughNs,
      entries: c.entries,
      size: c.data.length,
      uncompressedSize: c.uncompressedSize,
      key: chunkKey(tenant, fingerprint, c.fromNs, c.throughNs, checksum),
      checksum,
    };
    return { ref, data: c.data, labels: c.labels, fingerprint, tables };
  }

  private async collect(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Map<string, SeriesAcc>> {
    const found = new Map<string, SeriesAcc>();
    await this.eachFile(tenant, fromNs, throughNs, (file) => {
      for (const id of file.select(matchers)) {
        const s = file.series[id];
        let acc: SeriesAcc | undefined;
        for (const c of s.chunks) {
          if (!overlaps(c, fromNs, throughNs)) continue;
          if (!acc) {
            const sid = labelsToString(s.labels);
            acc = found.get(sid);
            if (!acc)
              found.set(
                sid,
                (acc = { labels: s.labels, fingerprint: s.fingerprint, chunks: new Map() }),
              );
          }
          acc.chunks.set(c.key, c);
        }
      }
    });
    return found;
  }

  /** Calls `visit` for every index file that may hold chunks overlapping the range. */
  private async eachFile(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
    visit: (file: IndexTable) => void,
  ): Promise<void> {
    assertSafeTenant(tenant);
    if (throughNs < fromNs) return;
    const tables = (await this.index.existingTables(tenant)).filter((t) => {
      const startNs = BigInt(t.number) * BigInt(t.periodMs) * NS_PER_MS;
      const endNs = startNs + BigInt(t.periodMs) * NS_PER_MS;
      return startNs <= throughNs && endNs > fromNs;
    });
    const loaded = await mapConcurrent(tables, this.concurrency, (t) =>
      this.index.loadTable(tenant, t),
    );
    for (const files of loaded)
      for (const file of files) if (file.overlaps(fromNs, throughNs)) visit(file);
  }

  private storeAt(timeNs: bigint): string {
    return this.schema.periodAt(Number(timeNs / NS_PER_MS)).object_store;
  }

  private clientFor(store: string): ObjectClient {
    const client = this.options.objectClients[store];
    if (!client) throw new StorageError(`no object client configured for object_store "${store}"`);
    return client;
  }
}

function toSeries(s: SeriesAcc): SeriesChunkRefs {
  return { labels: s.labels, fingerprint: s.fingerprint, chunks: [...s.chunks.values()] };
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/**
 * Loki's `util.GetFactorOfTime`: the share of a chunk's time span `[minNs, maxNs]` inside
 * `[fromNs, throughNs]`; 1 for a chunk of one instant that overlaps.
 */
export function timeFactor(
  fromNs: bigint,
  throughNs: bigint,
  minNs: bigint,
  maxNs: bigint,
): number {
  if (fromNs > maxNs || throughNs < minNs) return 0;
  if (minNs === maxNs) return 1;
  const total = maxNs - minNs;
  const leading = fromNs > minNs ? fromNs - minNs : 0n;
  const trailing = maxNs > throughNs ? maxNs - throughNs : 0n;
  return Number(total - leading - trailing) / Number(total);
}
