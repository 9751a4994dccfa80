import type { EntryRun } from './entry-run';

/*
 * Buffers that blocks are decompressed into (a columnar block's lines, a zstd row block's
 * payload) for cursors whose line views do not outlive the cursor's next `next()`
 * (`CursorOptions.transientLines`): a cursor gives a block's buffer back once it has left the
 * block and been advanced again, and the next block read on this thread takes it. A fresh 64 KiB Buffer per block costs about as much CPU as
 * decompressing into it (allocation and garbage collection; bench:scan), and a query that
 * allocates more than about 32 MB of them makes V8 collect its young generation for it.
 */
/**
 * What the free list keeps at most. A log query holds one block per stream it reads (each
 * stream's next entry waits in the merge), so the free list must hold about as many buffers
 * as a query reads streams for the next query to find them all.
 */
const MAX_FREE_BYTES = 16 << 20;
/**
 * Buffers are made at least this large, so one fits any block of the default 64 KiB target
 * (a block is cut once its lines pass the target: by one line more at most).
 */
const MIN_SIZE = 72 << 10;

const free: Buffer[] = [];
let freeBytes = 0;

/** A buffer of at least `length` bytes (its contents are arbitrary). */
export function takeScratch(length: number): Buffer {
  for (let i = free.length - 1; i >= 0; i--) {
    const b = free[i];
    if (b.length >= length) {
      free[i] = free[free.length - 1];
      free.pop();
      freeBytes -= b.length;
      return b;
    }
  }
  return Buffer.allocUnsafeSlow(Math.max(length, MIN_SIZE));
}

/** Gives back a buffer from `takeScratch` that nothing reads any more. */
export function giveScratch(buf: Buffer): void {
  if (freeBytes + buf.length > MAX_FREE_BYTES) return;
  free.push(buf);
  freeBytes += buf.length;
}

/**
 * A run read with its lines in a scratch buffer: `run`'s fields, but `lines` decompressed on
 * first read into a buffer from `takeScratch` (or `run`'s own lines when it holds them, or its
 * codec cannot write in place). `release` gives the scratch buffer back.
 */
export class ScratchLinesRun implements EntryRun {
  readonly count: number;
  readonly ts: BigInt64Array;
  readonly lineOffsets: Uint32Array;
  readonly symbols: readonly string[];
  readonly order: Uint32Array | null;
  readonly onePairName?: number;
  private view: Buffer | null = null;
  private scratch: Buffer | null = null;

  constructor(private readonly run: EntryRun) {
    this.count = run.count;
    this.ts = run.ts;
    this.lineOffsets = run.lineOffsets;
    this.symbols = run.symbols;
    this.order = run.order;
    if (run.onePairName !== undefined) this.onePairName = run.onePairName;
  }

  get lines(): Buffer {
    let view = this.view;
    if (view === null) {
      const length = this.lineOffsets[this.count];
      const scratch = takeScratch(length);
      view = scratch.subarray(0, length);
      if (this.run.linesInto!(view)) this.scratch = scratch;
      else {
        giveScratch(scratch);
        view = this.run.lines;
      }
      this.view = view;
    }
    return view;
  }

  get smOffsets(): Uint32Array {
    return this.run.smOffsets;
  }

  get smIds(): Uint32Array {
    return this.run.smIds;
  }

  onePairValue(row: number): number {
    return this.run.onePairValue!(row);
  }

  /** Gives the scratch buffer back; the lines must not be read after. */
  release(): void {
    if (this.scratch !== null) giveScratch(this.scratch);
    this.scratch = null;
    this.view = null;
  }
}

/**
 * A row-format block decoded from a payload decompressed into a buffer from `takeScratch`:
 * its timestamps, lines and metadata pairs are all views into that buffer, so none may be
 * read after `release`, which gives the buffer back.
 */
export class ScratchPayloadRun implements EntryRun {
  readonly count: number;
  readonly ts: BigInt64Array;
  readonly lineOffsets: Uint32Array;
  readonly lines: Buffer;
  readonly symbols: readonly string[];
  readonly order: Uint32Array | null;

  constructor(
    private readonly run: EntryRun,
    private scratch: Buffer | null,
  ) {
    this.count = run.count;
    this.ts = run.ts;
    this.lineOffsets = run.lineOffsets;
    this.lines = run.lines;
    this.symbols = run.symbols;
    this.order = run.order;
  }

  get smOffsets(): Uint32Array {
    return this.run.smOffsets;
  }

  get smIds(): Uint32Array {
    return this.run.smIds;
  }

  /** Gives the scratch buffer back; nothing of the run may be read after. */
  release(): void {
    if (this.scratch !== null) giveScratch(this.scratch);
    this.scratch = null;
  }
}
