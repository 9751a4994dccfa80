import { rowAt } from './entry-run';
import { LineSet } from './line-set';
import type { RunState } from './run-state';

/** Below any 64-bit timestamp: no group is open yet. */
const NO_TIMESTAMP = -(1n << 64n);
const EMPTY_MASK = new Uint8Array(0);

/**
 * The runs of a heap merge that hold the timestamp being returned. When several do, `open`
 * decides which of their entries at that timestamp to keep: taken in insertion order (runs by
 * rank, each run's positions ascending), an entry whose line an earlier one had is a copy and
 * is dropped, whichever direction the merge walks. Run line bytes stay put while a cursor uses
 * them, so nothing is copied; flags live in a typed array reused from group to group.
 */
export class TieGroup {
  ts = NO_TIMESTAMP;
  /** More than one run holds `ts`: consult `keeps`. */
  shared = false;
  private readonly members: RunState[] = [];
  private readonly heapIndexes: number[] = [];
  /** Made when a timestamp is first shared: most merges never meet one. */
  private lines: LineSet | null = null;
  private keep = EMPTY_MASK;

  /**
   * Opens the group of the heap top's timestamp. The heap is ordered by timestamp first (in
   * walking direction), so the runs at it form a subtree at the root.
   */
  open(heap: readonly RunState[], ts: bigint): void {
    this.ts = ts;
    this.shared = (heap.length > 1 && heap[1].ts === ts) || (heap.length > 2 && heap[2].ts === ts);
    if (!this.shared) return;
    const members = this.members;
    const indexes = this.heapIndexes;
    members.length = 0;
    indexes.length = 0;
    indexes.push(0);
    for (let k = 0; k < indexes.length; k++) {
      const state = heap[indexes[k]];
      insertByRank(members, state);
      for (let child = 2 * indexes[k] + 1; child <= 2 * indexes[k] + 2; child++) {
        if (child < heap.length && heap[child].ts === ts) indexes.push(child);
      }
    }
    this.markCopies();
  }

  /** Whether the entry at `pos` of `state` (a run of the open shared group) is kept. */
  keeps(state: RunState, pos: number): boolean {
    return this.keep[state.groupBase + pos - state.groupLo] === 1;
  }

  private markCopies(): void {
    const lines = (this.lines ??= new LineSet());
    lines.clear();
    let base = 0;
    for (const m of this.members) {
      const span = m.tieSpan();
      const lo = m.forward ? m.pos : m.pos - span + 1;
      m.groupLo = lo;
      m.groupBase = base;
      if (base + span > this.keep.length) {
        const bigger = new Uint8Array(Math.max(base + span, 2 * this.keep.length, 64));
        bigger.set(this.keep);
        this.keep = bigger;
      }
      const { run } = m;
      for (let i = 0; i < span; i++) {
        const row = rowAt(run, lo + i);
        const added = lines.add(run.lines, run.lineOffsets[row], run.lineOffsets[row + 1]);
        this.keep[base + i] = added ? 1 : 0;
      }
      base += span;
    }
  }
}

function insertByRank(members: RunState[], state: RunState): void {
  let i = members.length;
  members.push(state);
  while (i > 0 && members[i - 1].rank > state.rank) {
    members[i] = members[i - 1];
    i--;
  }
  members[i] = state;
}
