import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/logql';

/** Fetches (and maybe decodes) chunks by their index in the select's list of refs. */
export type FetchBatch<T> = (indices: readonly number[]) => Promise<T[]>;

/**
 * Fetches a select's chunks as its cursors ask for them: the chunk asked for plus the next ones
 * not fetched yet in the query's time order, `batchSize` at a time, and one more batch ahead
 * while the query reads the first (bounded prefetch). A fetched chunk is held until its cursor
 * takes it, then only by that cursor.
 */
export class ChunkLoader<T> {
  private readonly loaded = new Map<number, T>();
  private readonly inflight = new Map<number, Promise<void>>();
  private readonly requested: Uint8Array;
  /** Position in `order` of the first chunk that may not be requested yet. */
  private cursor = 0;
  private prefetch: Promise<void> | null = null;

  constructor(
    /** Chunk indices in the query's time order. */
    private readonly order: readonly number[],
    private readonly batchSize: number,
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

  /** Fetches the next batch while the query reads this one (one read-ahead at a time). */
  private readAhead(): void {
    if (this.prefetch !== null || this.loaded.size >= this.batchSize) return;
    const ahead = this.nextBatch(undefined);
    if (ahead.length === 0) return;
    const p = this.start(ahead);
    this.prefetch = p;
    const clear = (): void => {
      if (this.prefetch === p) this.prefetch = null;
    };
    p.then(clear, clear);
  }

  /** `first` (if given) and the next chunks in time order not requested yet. */
  private nextBatch(first: number | undefined): number[] {
    const batch: number[] = [];
    if (first !== undefined) {
      batch.push(first);
      this.requested[first] = 1;
    }
    while (batch.length < this.batchSize && this.cursor < this.order.length) {
      const i = this.order[this.cursor++];
      if (this.requested[i] === 1) continue;
      this.requested[i] = 1;
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

  get structuredMetadata(): Labels {
    return this.inner === null ? EMPTY_LABELS : this.inner.structuredMetadata;
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
