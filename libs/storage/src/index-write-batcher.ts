import type { SeriesChunkRefs } from './index-model';
import type { IndexTableRef } from './schema-config';

interface Batch {
  readonly files: SeriesChunkRefs[][];
  readonly done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

interface TableState {
  writing: boolean;
  next: Batch | null;
}

export type WriteIndexFile = (
  tenant: string,
  table: IndexTableRef,
  files: readonly SeriesChunkRefs[][],
) => Promise<void>;

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => {}); // each caller awaits it; an unobserved failure must not crash
  return { files: [], done, resolve, reject };
}

/**
 * Group commit for index files: while one file of a tenant's table is being written, the
 * series of later chunk puts gather and go out together in the next file. A flush pass over
 * thousands of streams then writes a handful of index files per table instead of one per
 * stream. Each caller's promise settles when a file holding its series is stored (or failed).
 */
export class IndexWriteBatcher {
  private readonly tables = new Map<string, TableState>();

  constructor(private readonly write: WriteIndexFile) {}

  add(tenant: string, table: IndexTableRef, series: SeriesChunkRefs[]): Promise<void> {
    const key = `${tenant}\u0000${table.objectStore}\u0000${table.name}`;
    let state = this.tables.get(key);
    if (state === undefined) {
      state = { writing: false, next: null };
      this.tables.set(key, state);
    }
    const batch = (state.next ??= newBatch());
    batch.files.push(series);
    if (!state.writing) this.writeNext(key, state, tenant, table);
    return batch.done;
  }

  private writeNext(key: string, state: TableState, tenant: string, table: IndexTableRef): void {
    const batch = state.next;
    if (batch === null) {
      this.tables.delete(key);
      return;
    }
    state.next = null;
    state.writing = true;
    // Started after the current tick, so puts reaching this point together share the file.
    void Promise.resolve()
      .then(() => this.write(tenant, table, batch.files))
      .then(batch.resolve, batch.reject)
      .finally(() => {
        state.writing = false;
        this.writeNext(key, state, tenant, table);
      });
  }
}
