import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/logql';

/** Fetches (and maybe decodes) chunks by their index in the select's list of refs. */
export type FetchBatch<T> = (indices: readonly number[]) => Promise<T[]>;

/** How much a ChunkLoader fetches at once and ahead of the query. */
export interface LoaderLimits {
  /** Chunks in one batch at most. */
  readonly batchChunks: number;
  /** Compressed bytes in one batch at most (a batch has at least one chunk). */
  readonly batchBytes: number;
  /** Batches fetched ahead of what the query asked for, at most. */
  readonly readAhead: number;
}

/**
 * Fetches a select's chunks as its cursors ask for them: the chunk asked for plus the next ones
 * not fetched yet in the query's time order, a batch at a time, and up to `readAhead` more
 * batches while the query reads (bounded prefetch). A fetched chunk is held until its cursor
 * takes it, then only by that cursor.
 */
export class ChunkLoader<T> {
  private readonly loaded = new Map<number, T>();
  private readonly inflight = new Map<number, Promise<void>>();
  private readonly requested: Uint8Array;
  /** Position in `order` of the first chunk that may not be requested yet. */
  private cursor = 0;
  /** Read-ahead batches under way. */
  private ahead = 0;

  constructor(
    /** Chunk indices in the query's time order. */
    private readonly order: readonly number[],
    /** Compressed size of chunk i. */
    private readonly sizeOf: (i: number) => number,
    private readonly limits: LoaderLimits,
    private readonly fetch: FetchBatch<T>,
  ) {
    this.requested = new Uint8Array(order.length);
  }

  /** The fetched chunk, given up by the loader; undefined when not fetched yet. */
  take(index: number): T | undefined {
    const got = this.loaded.get(index);
    if (got === undefined) return undefined;
    this.loaded.delete(index);
    this.readAhead();
    return got;
  }

  /** Resolves once chunk `index` is fetched (rejects if fetching failed). */
  load(index: number): Promise<void> {
    const pending = this.inflight.get(index);
    if (pending !== undefined) return pending;
    if (this.loaded.has(index)) return Promise.resolve();
    const done = this.start(this.nextBatch(index));
    this.readAhead();
    return done;
  }

  /** Fetches the next batches while the query reads these, while fetched ones are few. */
  private readAhead(): void {
    while (this.ahead < this.limits.readAhead && this.loaded.size < this.limits.batchChunks) {
      const batch = this.nextBatch(undefined);
      if (batch.length === 0) return;
      this.ahead++;
      const done = (): void => {
        this.ahead--;
      };
      this.start(batch).then(done, done);
    }
  }

  /** `first` (if given) and the next chunks in time order not requested yet. */
  private nextBatch(first: number | undefined): number[] {
    const batch: number[] = [];
    let bytes = 0;
    if (first !== undefined) {
      batch.push(first);
      bytes += this.sizeOf(first);
      this.requested[first] = 1;
    }
    const { batchChunks, batchBytes } = this.limits;
    while (batch.length < batchChunks && this.cursor < this.order.length) {
      const i = this.order[this.cursor];
      if (this.requested[i] === 1) {
        this.cursor++;
        continue;
      }
      if (batch.length > 0 && bytes + this.sizeOf(i) > batchBytes) break;
      this.cursor++;
      this.requested[i] = 1;
      bytes += this.sizeOf(i);
      batch.push(i);
    }
    return batch;
  }

  private start(batch: readonly number[]): Promise<void> {
    const p = this.fetch(batch).then(
      (chunks) => {
        batch.forEach((i, k) => {
          this.loaded.set(i, chunks[k]);
          this.inflight.delete(i);
        });
      },
      (err: unknown) => {
        for (const i of batch) this.inflight.delete(i);
        throw err;
      },
    );
    // A read-ahead nobody waits for must not fail the process; whoever waits sees the error.
    p.catch(() => undefined);
    for (const i of batch) this.inflight.set(i, p);
    return p;
  }
}

/**
 * One chunk's entries, fetched only when a merge reaches `startNs` (the chunk's first entry
 * forward, its last backward) and reads it: until then `next()` is false and `wait()` fetches
 * it. Drops the chunk once read to the end.
 */
export class LazyChunkCursor<T> implements EntryCursor {
  private inner: EntryCursor | null = null;
  private ended = false;

  constructor(
    private readonly loader: ChunkLoader<T>,
    private readonly index: number,
    readonly startNs: bigint,
    private readonly open: (chunk: T) => EntryCursor,
  ) {}

  get timestampNs(): bigint {
    return this.inner!.timestampNs;
  }

  get line(): Buffer {
    return this.inner!.line;
  }

  get lineSource(): Buffer {
    return this.inner!.lineSource;
  }

  get lineStart(): number {
    return this.inner!.lineStart;
  }

  get lineEnd(): number {
    return this.inner!.lineEnd;
  }

  get structuredMetadata(): Labels {
    return this.inner === null ? EMPTY_LABELS : this.inner.structuredMetadata;
  }

  get metadataNames(): readonly string[] | undefined {
    return this.inner === null ? undefined : this.inner.metadataNames;
  }

  next(): boolean {
    if (this.inner === null) {
      if (this.ended) return false;
      const chunk = this.loader.take(this.index);
      if (chunk === undefined) return false;
      this.inner = this.open(chunk);
    }
    if (this.inner.next()) return true;
    this.inner = null;
    this.ended = true;
    return false;
  }

  wait(): Promise<void> | null {
    if (this.inner !== null || this.ended) return null;
    return this.loader.load(this.index);
  }
}
