import type { EntryRun } from './entry-run';

/** Bytes a decoded block holds: its line bytes and its column arrays. */
export function entryRunBytes(run: EntryRun): number {
  return (
    // Offsets, not `lines`: a columnar block's lines are decompressed only when read.
    run.lineOffsets[run.count] +
    run.ts.byteLength +
    run.lineOffsets.byteLength +
    // Not `smOffsets` / `smIds` themselves: reading them decodes a columnar block's metadata.
    (run.metadataBytes?.() ?? run.smOffsets.byteLength + run.smIds.byteLength) +
    (run.order?.byteLength ?? 0)
  );
}

/**
 * Decoded blocks of read-only chunks, kept for the next reader of the same block: the splits
 * of a query each read the blocks that straddle their boundaries, and without this each one
 * decompresses and decodes them again. Least recently used first out, bounded by bytes.
 * A key names one block of immutable bytes (a chunk's object key and the block's number), so
 * a chunk decoded again, after the chunk cache dropped its bytes, finds its blocks here.
 * A run is never changed by its readers, so one run serves any number of cursors at once.
 */
export class BlockRunCache {
  private readonly runs = new Map<string, { readonly run: EntryRun; readonly bytes: number }>();
  private held = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.runs.size;
  }

  /**
   * The run of `block`, from the cache or `decode()`. `sides` says on how many sides the block
   * reaches outside the reader's range (0, 1 or 2): a reader of the range next to it on such
   * a side wants it too. So a decoded block is kept when `sides` > 0 (and it fits); a block
   * found by a reader it reaches past on one side only has met its readers on both sides and
   * is dropped, one it reaches past on both is kept for the reader on the other side. Splits
   * thus keep just the blocks at the boundaries not yet read on both sides, and a scan of many
   * blocks pushes none of them out.
   */
  load(block: string, decode: () => EntryRun, sides: 0 | 1 | 2 = 2): EntryRun {
    const hit = this.runs.get(block);
    if (hit !== undefined) {
      this.hits++;
      if (sides === 1) this.drop(block, hit.bytes);
      else if (sides === 2) {
        // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
        this.runs.delete(block);
        this.runs.set(block, hit);
      }
      return hit.run;
    }
    this.misses++;
    const run = decode();
    const bytes = entryRunBytes(run);
    if (sides === 0 || bytes > this.maxBytes) return run;
    while (this.held + bytes > this.maxBytes) {
      const oldest = this.runs.entries().next();
      if (oldest.done) break;
      this.drop(oldest.value[0], oldest.value[1].bytes);
    }
    this.runs.set(block, { run, bytes });
    this.held += bytes;
    return run;
  }

  private drop(block: string, bytes: number): void {
    this.runs.delete(block);
    this.held -= bytes;
  }

  clear(): void {
    this.runs.clear();
    this.held = 0;
  }
}
