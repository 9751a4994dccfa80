import type { IndexTable } from './index-table';

/**
 * Loaded index files by object key, least recently used evicted first once the estimated
 * memory exceeds `maxBytes`. Files are immutable, so entries never go stale; a deleted file's
 * entry simply stops being asked for and ages out.
 */
export class IndexFileCache {
  private readonly entries = new Map<string, { table: IndexTable; bytes: number }>();
  private totalBytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): IndexTable | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // re-insert: Map order is our recency order
    this.entries.set(key, entry);
    return entry.table;
  }

  set(key: string, table: IndexTable, bytes: number): void {
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.totalBytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { table, bytes });
    this.totalBytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.totalBytes -= e.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.totalBytes -= entry.bytes;
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }
}
