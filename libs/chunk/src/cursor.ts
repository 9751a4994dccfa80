import { EMPTY_LABELS, type LabelPair, type Labels } from '@logsvc/api';
import { compareEntries, type EntryRun, lowerBound, rowAt } from './entry-run';

export type Direction = 'forward' | 'backward';

/** A cursor over entries sorted by time; no allocation per step beyond the line view. */
export interface EntryCursor {
  next(): boolean;
  readonly timestampNs: bigint;
  readonly line: Buffer;
  readonly structuredMetadata: Labels;
}

/** Something that can produce a sorted run, known by its time range before it is loaded. */
export interface RunSource {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  load(): EntryRun;
}

const EMPTY_LINE = Buffer.alloc(0);

/** One run being walked over its positions inside the query range. */
class RunState {
  row: number;
  constructor(
    readonly run: EntryRun,
    public pos: number,
    private readonly stop: number,
    private readonly step: 1 | -1,
  ) {
    this.row = pos === stop ? -1 : rowAt(run, pos);
  }

  static open(run: EntryRun, fromNs: bigint, throughNs: bigint, direction: Direction): RunState {
    const lo = lowerBound(run, fromNs);
    const hi = lowerBound(run, throughNs);
    return direction === 'forward'
      ? new RunState(run, lo, Math.max(lo, hi), 1)
      : new RunState(run, Math.max(lo, hi) - 1, lo - 1, -1);
  }

  get done(): boolean {
    return this.pos === this.stop;
  }

  advance(): void {
    this.pos += this.step;
    this.row = this.pos === this.stop ? -1 : rowAt(this.run, this.pos);
  }
}

/**
 * Merges sorted runs into one sorted stream for [fromNs, throughNs), dropping entries equal in
 * timestamp and line to the one just returned. Runs whose time ranges do not overlap are
 * walked one after another and loaded only when reached; overlapping runs go through a heap.
 */
export class MergeCursor implements EntryCursor {
  private ts = 0n;
  private lineView: Buffer = EMPTY_LINE;
  private run: EntryRun | null = null;
  private row = -1;
  private labels: Labels | null = null;
  /** Sequential mode: sources still to open, in output order. */
  private readonly pending: RunSource[];
  private current: RunState | null = null;
  /** Heap mode: open runs, best first; null in sequential mode. */
  private readonly heap: RunState[] | null;
  private readonly sign: 1 | -1;

  constructor(
    sources: readonly RunSource[],
    private readonly fromNs: bigint,
    private readonly throughNs: bigint,
    private readonly direction: Direction,
  ) {
    this.sign = direction === 'forward' ? 1 : -1;
    const inRange = sources
      .filter((s) => s.maxTs >= fromNs && s.minTs < throughNs)
      .sort((a, b) => (a.minTs < b.minTs ? -1 : a.minTs > b.minTs ? 1 : 0));
    let disjoint = true;
    for (let i = 1; i < inRange.length && disjoint; i++) {
      disjoint = inRange[i - 1].maxTs < inRange[i].minTs;
    }
    if (disjoint) {
      this.pending = direction === 'forward' ? inRange.reverse() : inRange;
      this.heap = null;
    } else {
      this.pending = [];
      this.heap = [];
      for (const s of inRange) {
        const state = RunState.open(s.load(), fromNs, throughNs, direction);
        if (!state.done) this.heap.push(state);
      }
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
    }
  }

  get timestampNs(): bigint {
    return this.ts;
  }

  get line(): Buffer {
    return this.lineView;
  }

  get structuredMetadata(): Labels {
    if (this.labels === null) this.labels = this.buildLabels();
    return this.labels;
  }

  next(): boolean {
    for (;;) {
      const state = this.heap === null ? this.nextSequential() : this.heap[0];
      if (state === undefined || state === null) return this.finish();
      const run = state.run;
      const row = state.row;
      state.advance();
      if (this.heap !== null) {
        if (state.done) {
          const last = this.heap.pop()!;
          if (this.heap.length > 0) this.heap[0] = last;
        }
        if (this.heap.length > 0) this.siftDown(0);
      }
      if (this.run !== null && compareEntries(this.run, this.row, run, row) === 0) continue;
      this.run = run;
      this.row = row;
      this.ts = run.ts[row];
      this.lineView = run.lines.subarray(run.lineOffsets[row], run.lineOffsets[row + 1]);
      this.labels = null;
      return true;
    }
  }

  private nextSequential(): RunState | null {
    while (this.current === null || this.current.done) {
      const source = this.pending.pop();
      if (source === undefined) return null;
      this.current = RunState.open(source.load(), this.fromNs, this.throughNs, this.direction);
    }
    return this.current;
  }

  private finish(): false {
    this.lineView = EMPTY_LINE;
    this.labels = EMPTY_LABELS;
    return false;
  }

  private buildLabels(): Labels {
    const run = this.run;
    if (run === null) return EMPTY_LABELS;
    const start = run.smOffsets[this.row];
    const end = run.smOffsets[this.row + 1];
    if (start === end) return EMPTY_LABELS;
    const out: LabelPair[] = [];
    for (let i = start; i < end; i += 2) {
      out.push({ name: run.symbols[run.smIds[i]], value: run.symbols[run.smIds[i + 1]] });
    }
    return out;
  }

  private before(a: RunState, b: RunState): boolean {
    return this.sign * compareEntries(a.run, a.row, b.run, b.row) < 0;
  }

  private siftDown(i: number): void {
    const heap = this.heap!;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && this.before(heap[l], heap[best])) best = l;
      if (r < heap.length && this.before(heap[r], heap[best])) best = r;
      if (best === i) return;
      const tmp = heap[i];
      heap[i] = heap[best];
      heap[best] = tmp;
      i = best;
    }
  }
}
