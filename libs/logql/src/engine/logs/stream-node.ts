/**
 * One source stream being read through its pipeline: holds the next entry that survived the
 * pipeline (timestamp, line, post-pipeline labels) until the merge takes it.
 */
import type { LabelsResult } from '../../log/labels-builder';
import type { StreamPipeline } from '../../log/pipeline';
import type { EntryCursor } from '../source';
import type { ChunkStats } from '../stats';

export const enum Advance {
  /** A kept entry is ready in the node's fields. */
  Ready,
  /** The stream has no more entries. */
  Done,
  /** The slice's line budget ran out before an entry was kept; call again. */
  Budget,
  /** The cursor fetches more entries: call again once `waiting` resolves. */
  Wait,
}

/** Lines all streams of a query may read before the query lets other work run. */
export interface ScanBudget {
  left: number;
}

export class StreamNode {
  timestampNs = 0n;
  /** Valid until the next `advance` (it may be the cursor's view of its block). */
  line: Buffer = Buffer.alloc(0);
  labels!: LabelsResult;
  /** After `Advance.Wait`: resolves when the cursor can go on. */
  waiting: Promise<void> | null = null;

  constructor(
    private readonly cursor: EntryCursor,
    private readonly pipeline: StreamPipeline,
    private readonly stats: ChunkStats,
  ) {}

  /** Reads lines (taking them from `budget`) until the pipeline keeps one. */
  advance(budget: ScanBudget): Advance {
    const cursor = this.cursor;
    while (budget.left > 0) {
      budget.left--;
      if (!cursor.next()) {
        this.waiting = cursor.wait?.() ?? null;
        return this.waiting === null ? Advance.Done : Advance.Wait;
      }
      const r = this.pipeline.process(cursor.timestampNs, cursor.line, cursor.structuredMetadata);
      if (r === null) continue;
      this.stats.postFilterLines++;
      this.timestampNs = cursor.timestampNs;
      this.line = r.line;
      this.labels = r.labels;
      return Advance.Ready;
    }
    return Advance.Budget;
  }
}
