/**
 * One source stream being read through its pipeline: holds the next entry that survived the
 * pipeline (timestamp, line, post-pipeline labels) until the merge takes it.
 */
import type { LabelsResult } from '../../log/labels-builder';
import type { EntryCursor } from '../source';
import type { EntryPipeline } from '../sources/multi-tenant';
import type { MemoryBudget } from '../memory-budget';
import type { TimeSlice } from '../time-slice';
import type { ChunkStats } from '../stats';

export const enum Advance {
  /** A kept entry is ready in the node's fields. */
  Ready,
  /** The stream has no more entries. */
  Done,
  /** The query's time slice ran out before an entry was kept; pause, then call again. */
  Budget,
  /** The cursor fetches more entries: call again once `waiting` resolves. */
  Wait,
}

const EMPTY = Buffer.alloc(0);

export class StreamNode {
  timestampNs = 0n;
  /** Valid until the next `advance` (it may be the cursor's view of its block). */
  line: Buffer = EMPTY;
  labels!: LabelsResult;
  /** After `Advance.Wait`: resolves when the cursor can go on. */
  waiting: Promise<void> | null = null;

  constructor(
    private readonly cursor: EntryCursor,
    private readonly pipeline: EntryPipeline,
    private readonly stats: ChunkStats,
    /** Counts the line this node holds (a formatted line may be a fresh, large Buffer). */
    private readonly memory: MemoryBudget,
  ) {}

  /** Reads lines until the pipeline keeps one or the query's time slice is spent. */
  advance(slice: TimeSlice): Advance {
    const cursor = this.cursor;
    while (!slice.spent()) {
      if (!cursor.next()) {
        if (this.line.length > 0) {
          this.memory.charge(-this.line.length);
          this.line = EMPTY;
        }
        this.waiting = cursor.wait?.() ?? null;
        return this.waiting === null ? Advance.Done : Advance.Wait;
      }
      const r = this.pipeline.process(cursor.timestampNs, cursor.line, cursor.structuredMetadata);
      if (r === null) continue;
      this.stats.postFilterLines++;
      this.timestampNs = cursor.timestampNs;
      this.memory.charge(r.line.length - this.line.length);
      this.line = r.line;
      this.labels = r.labels;
      return Advance.Ready;
    }
    return Advance.Budget;
  }
}
